import { z } from 'zod';
import { DeviceActionType, InventoryKind, ServiceAction } from './devices';
import { AgentPlatform } from './agent-releases';
import { StepConditions } from './step-conditions';

// The commands the server sends an agent and the results of the built-in ones (agent-protocol.ts
// describes the protocol; it re-exports this file).

const id = z.string().min(1).max(128);

// ---------- commands (server → agent) ----------

export const RefreshInventoryCommand = z.object({
  kind: z.literal('refresh_inventory'),
  inventoryKind: z.union([InventoryKind, z.literal('all')]),
});
export const ServiceControlCommand = z.object({
  kind: z.literal('service_control'),
  serviceName: z.string().min(1).max(255),
  action: ServiceAction,
});
export const DeviceActionCommand = z.object({
  kind: z.literal('device_action'),
  action: DeviceActionType,
  data: z.record(z.string(), z.unknown()).nullable().optional(),
});
/** Deployment steps as the agent runs them (docs/product/packages.md#fields). */
export const DeploymentStep = z.object({
  stepOrder: z.number().int().positive(),
  stepName: z.string(),
  stepType: z.string(),
  stepDetails: z.record(z.string(), z.unknown()),
  timeoutSeconds: z.number().int().positive(),
  retryCount: z.number().int().nonnegative(),
  failDeploymentOnError: z.boolean(),
  /** checked on the device before the step runs (docs/product/rollouts.md#step-conditions) */
  conditions: StepConditions.optional(),
});
export type DeploymentStep = z.infer<typeof DeploymentStep>;
export const RunDeploymentCommand = z.object({
  kind: z.literal('run_deployment'),
  jobId: z.number().int(),
  deviceDeploymentId: z.number().int(),
  packageName: z.string(),
  /** the package's target OS; an agent on another OS runs none of the steps (docs/architecture.md) */
  targetOs: z.string().max(16).optional(),
  steps: z.array(DeploymentStep),
  /**
   * a job run only inside maintenance windows: when the device's window closes (ISO); a step whose
   * timeout would pass it is not started (docs/product/rollouts.md#maintenance-windows)
   */
  windowEndsAt: z.string().datetime({ offset: true }).optional(),
  /** a resumed run starts at this step; the steps before it ran in an earlier window */
  startAtStep: z.number().int().positive().optional(),
});
/**
 * Run a script of the library on the device (docs/product/scripts.md#runs): its body written to a
 * file in the agent's work folder and run by the language's interpreter, parameters only as
 * environment variables OUTPOST_<NAME>. Secret values are not in the command: the agent fetches
 * them with its credentials when the run starts (GET /api/agent/script-runs/{commandId}/secrets).
 */
export const RunScriptCommand = z.object({
  kind: z.literal('run_script'),
  jobId: z.number().int(),
  deviceDeploymentId: z.number().int(),
  /** the script's name and version, as the job is named */
  name: z.string().max(200),
  language: z.enum(['powershell', 'cmd', 'bash', 'sh', 'zsh', 'python']),
  body: z.string().max(256 * 1024),
  /** non-secret parameter values by name */
  params: z.record(z.string().max(48), z.string().max(4000)),
  /** the names of the secret parameters (their values come from the server at run start) */
  secretNames: z.array(z.string().max(48)).max(20),
  timeoutSeconds: z.number().int().positive(),
});
export type RunScriptCommand = z.infer<typeof RunScriptCommand>;
export const CancelCommand = z.object({
  kind: z.literal('cancel'),
  /** the command (usually a run_deployment) to stop */
  targetCommandId: id,
});

/** `url` of a build: a path on the agent's own server (never another origin: it sends its credentials) */
const serverPath = /^\/api\/[A-Za-z0-9/_.-]+$/;
const compressedBuild = (encoding: 'br' | 'xz') =>
  z.object({
    url: z
      .string()
      .max(512)
      .regex(new RegExp(`^/api/[A-Za-z0-9/_.-]+\\?encoding=${encoding}$`)),
    size: z.number().int().positive(),
  });
/**
 * Update the agent: a published build per platform of the device's OS (older agents report no
 * architecture); the agent takes its own and answers once it connected, or why it refused or rolled back.
 */
export const AgentBuild = z.object({
  platform: AgentPlatform,
  version: z.string().max(64),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  size: z.number().int().positive(),
  url: z.string().max(512).regex(serverPath),
  /**
   * The same build compressed (Brotli; xz for Linux and macOS, decompressed with the system's xz
   * when it has one): the agent downloads one of these instead, at most its `size` bytes, and
   * checks size and sha256 above on the decompressed result.
   */
  br: compressedBuild('br').optional(),
  xz: compressedBuild('xz').optional(),
  /** Windows: the signer certificate's sha256; the agent refuses an executable it did not sign */
  signer_sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
});
export type AgentBuild = z.infer<typeof AgentBuild>;
export const UpdateAgentCommand = z.object({
  kind: z.literal('update_agent'),
  version: z.string().max(64),
  builds: z.array(AgentBuild).min(1).max(8),
});
export type UpdateAgentCommand = z.infer<typeof UpdateAgentCommand>;

/** An agent update job's targets: per OS type, the version and its executables (docs/product/rollouts.md#agent-updates-in-waves). */
export type AgentUpdateTargets = Record<string, Omit<UpdateAgentCommand, 'kind'>>;

export const AgentCommand = z.discriminatedUnion('kind', [
  RefreshInventoryCommand,
  ServiceControlCommand,
  DeviceActionCommand,
  RunDeploymentCommand,
  CancelCommand,
  UpdateAgentCommand,
  RunScriptCommand,
]);
export type AgentCommand = z.infer<typeof AgentCommand>;
export type AgentCommandKind = AgentCommand['kind'];
export const AGENT_COMMAND_KINDS = AgentCommand.options.map((o) => o.shape.kind.value);

export const COMMAND_STATUSES = ['pending', 'sent', 'completed', 'failed'] as const;
export const CommandStatus = z.enum(COMMAND_STATUSES);
export type CommandStatus = z.infer<typeof CommandStatus>;
export const COMMAND_RESULT_STATUSES = ['completed', 'failed'] as const;

// ---------- results of the built-in commands ----------

export const ServiceControlResult = z.object({
  serviceName: z.string(),
  action: ServiceAction,
  status: z.string(),
});
export type ServiceControlResult = z.infer<typeof ServiceControlResult>;
