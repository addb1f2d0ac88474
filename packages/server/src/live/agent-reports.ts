import type { AgentCommandKind, StepProgressMessage } from '@outpost/contract/agent-protocol';
import type { DeviceRef } from './device-state';

// What agents report about their commands, as the command queue hands it on: a command's result,
// once it is recorded, and step progress. The deployment engine implements this port
// (modules/deployments/engine/deployment-engine.ts) and app.ts gives it to the command queue.

export type CommandResultEvent = {
  device: DeviceRef;
  commandId: string;
  kind: AgentCommandKind;
  status: 'completed' | 'failed';
  result: Record<string, unknown> | null;
  error: string | null;
};

/** Step progress of one device, in the order it was sent (one message, or a run of them). */
export type StepProgressEvent = { device: DeviceRef; messages: StepProgressMessage[] };

/**
 * A step_progress message the reports refused (a step or attempt its job does not have): the
 * agent is told why (`invalid_message` with the message's id) and the message is acknowledged,
 * so it is not sent again (SECURITY.md R2-13).
 */
export type ProgressRefusal = { messageId: string; reason: string };

export type AgentReports = {
  /** a command's result, recorded once; a failure here is logged, the result stays recorded */
  commandResult(event: CommandResultEvent): Promise<void>;
  /**
   * Stores step progress; rejects when it could not (the database is away), so the message is
   * not acknowledged and the agent resends it. Answers the messages refused.
   */
  stepProgress(event: StepProgressEvent): Promise<ProgressRefusal[]>;
};
