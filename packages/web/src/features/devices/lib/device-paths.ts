// Paths on a device for the Files tab (docs/product/remote-access.md#file-transfer): Windows
// paths (C:\Users, the drives at the top: "") and the others (/Users, the top: /).

export type PathStyle = 'windows' | 'posix';

export const pathStyleOf = (osType: string | null | undefined): PathStyle =>
  osType === 'windows' ? 'windows' : 'posix';

export const topPath = (style: PathStyle) => (style === 'windows' ? '' : '/');

const sepOf = (style: PathStyle) => (style === 'windows' ? '\\' : '/');

/** `name` inside `folder`. */
export function joinPath(folder: string, name: string, style: PathStyle): string {
  if (folder === '') {
    return name;
  }
  const sep = sepOf(style);
  return folder.endsWith(sep) || folder.endsWith('/') ? folder + name : folder + sep + name;
}

/** The folder holding `p` (the top holds itself). */
export function parentPath(p: string, style: PathStyle): string {
  const parts = p.split(/[\\/]/).filter(Boolean);
  if (style === 'windows') {
    if (parts.length <= 1) {
      return '';
    }
    return parts.length === 2 ? `${parts[0]}\\` : parts.slice(0, -1).join('\\');
  }
  return parts.length <= 1 ? '/' : `/${parts.slice(0, -1).join('/')}`;
}

export type Crumb = { label: string; path: string };

/** The breadcrumb of `p`, from the top. */
export function crumbsOf(p: string, style: PathStyle): Crumb[] {
  const parts = p.split(/[\\/]/).filter(Boolean);
  if (style === 'windows') {
    const crumbs: Crumb[] = [{ label: 'This PC', path: '' }];
    parts.forEach((part, i) => {
      crumbs.push({ label: part, path: i === 0 ? `${part}\\` : parts.slice(0, i + 1).join('\\') });
    });
    return crumbs;
  }
  return [
    { label: '/', path: '/' },
    ...parts.map((part, i) => ({ label: part, path: `/${parts.slice(0, i + 1).join('/')}` })),
  ];
}
