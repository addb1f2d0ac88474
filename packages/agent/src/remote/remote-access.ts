import type {
  AgentRemoteMessage,
  FileCancelMessage,
  FileReceiveMessage,
  FileSendMessage,
  FsListMessage,
  RemotePolicyMessage,
  ServerRemoteMessage,
  TerminalCloseMessage,
  TerminalInputMessage,
  TerminalOpenMessage,
  TerminalResizeMessage,
} from '@outpost/contract/agent-protocol';

// Remote access on the agent (docs/agent.md "Remote access"): the policy the server last sent,
// and the terminal and file handlers behind it. Until a policy arrives, and whenever it turns a
// kind off, the agent refuses that kind on its own, whatever the server asks: a terminal_open is
// answered with terminal_exit `refused`, a listing with an error, a transfer with a failed
// file_status. A device owner may turn remote access off for good in the agent's configuration
// (`remote: false`): the hello then does not list the capability and every request is refused.

export type TerminalMessage =
  TerminalOpenMessage | TerminalInputMessage | TerminalResizeMessage | TerminalCloseMessage;
export type FilesMessage = FsListMessage | FileSendMessage | FileReceiveMessage | FileCancelMessage;

export type RemoteHandlers = {
  /** terminal messages, once the policy allows the terminal; `send` answers the server */
  terminal?: (message: TerminalMessage, send: (message: AgentRemoteMessage) => void) => void;
  /** listing and transfer messages, once the policy allows files; `send` answers the server */
  files?: (message: FilesMessage, send: (message: AgentRemoteMessage) => void) => void;
  /** the policy changed (e.g. the terminal was turned off: running sessions end) */
  policyChanged?: (policy: RemotePolicyMessage) => void;
  /** the socket to the server closed: live sessions end (nobody can see them any more) */
  connectionLost?: () => void;
};

export const REFUSED_TERMINAL = 'The remote terminal is turned off for this device';
export const REFUSED_FILES = 'File transfer is turned off for this device';

export class RemoteAccess {
  private current: RemotePolicyMessage | null = null;

  constructor(
    private readonly send: (message: AgentRemoteMessage) => void,
    private readonly handlers: RemoteHandlers,
    /** false: the device owner turned remote access off in the agent's configuration */
    private readonly allowedHere = true,
  ) {}

  get policy(): RemotePolicyMessage | null {
    return this.current;
  }

  allows(kind: 'terminal' | 'files'): boolean {
    return this.allowedHere && this.current?.[kind] === true;
  }

  onMessage(message: ServerRemoteMessage): void {
    switch (message.type) {
      case 'remote_policy':
        this.current = message;
        this.handlers.policyChanged?.(message);
        return;
      case 'terminal_open':
        if (!this.allows('terminal') || !this.handlers.terminal) {
          this.send({
            type: 'terminal_exit',
            sessionId: message.sessionId,
            reason: 'refused',
            message: REFUSED_TERMINAL,
          });
          return;
        }
        this.handlers.terminal(message, this.send);
        return;
      case 'terminal_input':
      case 'terminal_resize':
      case 'terminal_close':
        if (this.allows('terminal')) {
          this.handlers.terminal?.(message, this.send);
        }
        return;
      case 'fs_list':
        if (!this.allows('files') || !this.handlers.files) {
          this.send({
            type: 'fs_list_result',
            requestId: message.requestId,
            path: message.path,
            entries: [],
            error: REFUSED_FILES,
          });
          return;
        }
        this.handlers.files(message, this.send);
        return;
      case 'file_send':
      case 'file_receive':
        if (!this.allows('files') || !this.handlers.files) {
          this.send({ type: 'file_status', transferId: message.transferId, ok: false, error: REFUSED_FILES });
          return;
        }
        this.handlers.files(message, this.send);
        return;
      case 'file_cancel':
        this.handlers.files?.(message, this.send);
        return;
    }
  }
}
