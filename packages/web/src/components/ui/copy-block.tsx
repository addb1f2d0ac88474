import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { cn } from '../../lib/cn';

// A secret or command shown whole in a dark block, with a copy button (an enrolment token, a
// webhook's signing secret).

/** `isWrapped`: a one-line command shown whole, wrapped anywhere (a token has no spaces). */
export function CopyBlock({ text, isWrapped = false }: { text: string; isWrapped?: boolean }) {
  const [isCopied, setIsCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => {
      setIsCopied(true);
      setTimeout(() => setIsCopied(false), 1500);
    });
  };
  return (
    <div className="group relative">
      <pre
        className={cn(
          'overflow-x-auto rounded-lg bg-slate-900 px-4 py-3 pr-12 font-mono text-xs leading-relaxed text-slate-100 dark:bg-black/50',
          isWrapped && 'break-all whitespace-pre-wrap',
        )}
      >
        {text}
      </pre>
      <button
        type="button"
        onClick={copy}
        aria-label="Copy"
        className="absolute top-2 right-2 rounded-md p-1.5 text-slate-400 hover:bg-white/10 hover:text-white"
      >
        {isCopied ? <Check className="size-4 text-emerald-400" /> : <Copy className="size-4" />}
      </button>
    </div>
  );
}
