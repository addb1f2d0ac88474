import type { StepField, StepTypeDefinition } from './step-types';

// The step types that act on the device and its user rather than on software: restart, message,
// wait (docs/product/rollouts.md#reboot-message-and-wait-steps). step-definitions.ts adds them to
// the catalogue.

/** The longest wait, message time-out or reboot delay: one day. */
export const MAX_STEP_SECONDS = 86_400;
export const MAX_REBOOT_DEFERRALS = 10;
/** The delay and time-outs of a reboot the agent starts itself (an installer's 3010/1641). */
export const DEFAULT_REBOOT_DELAY_SECONDS = 60;
export const DEFAULT_DEFERRAL_MINUTES = 60;

/** EXE and MSI: reboot after the step when the installer asks for it (docs/product/rollouts.md). */
export const rebootOnRequestField: StepField = {
  key: 'reboot_on_request',
  label: 'Reboot when the installer asks (exit code 3010/1641)',
  type: 'boolean',
  required: false,
  helpText:
    'After the step, the agent restarts the device (60 s delay, no message) and goes on with the next step once it is back.',
  default: false,
};

export const DEVICE_STEP_DEFINITIONS = {
  REBOOT: {
    type: 'REBOOT',
    label: 'Reboot',
    description:
      'Restart the device, optionally after telling the user and letting them postpone; the deployment goes on after the restart.',
    fields: [
      {
        key: 'message',
        label: 'Message to the User',
        type: 'textarea',
        required: false,
        placeholder: 'Your computer restarts in one minute to finish installing updates.',
        helpText: 'Shown to the logged-in user before the restart. Leave empty to restart without a message.',
      },
      {
        key: 'delay_seconds',
        label: 'Delay (seconds)',
        type: 'number',
        required: false,
        default: DEFAULT_REBOOT_DELAY_SECONDS,
        range: { min: 0, max: MAX_STEP_SECONDS },
        helpText: 'Time between the notice and the restart.',
      },
      {
        key: 'max_deferrals',
        label: 'Maximum Deferrals',
        type: 'number',
        required: false,
        default: 0,
        range: { min: 0, max: MAX_REBOOT_DEFERRALS },
        helpText:
          'How often a logged-in user may choose Later (Windows and macOS; Linux restarts without asking). 0: no choice.',
      },
      {
        key: 'deferral_minutes',
        label: 'Ask Again After (minutes)',
        type: 'number',
        required: false,
        default: DEFAULT_DEFERRAL_MINUTES,
        range: { min: 1, max: 1440 },
      },
    ],
  },
  MESSAGE: {
    type: 'MESSAGE',
    label: 'Message',
    description: 'Show a message to the user logged in on the device.',
    fields: [
      {
        key: 'title',
        label: 'Title',
        type: 'text',
        required: true,
        placeholder: 'IT notice',
        default: 'IT notice',
      },
      {
        key: 'message',
        label: 'Message',
        type: 'textarea',
        required: true,
        placeholder: 'New software was installed. Please save your work.',
      },
      {
        key: 'timeout_seconds',
        label: 'Close After (seconds)',
        type: 'number',
        required: false,
        range: { min: 1, max: MAX_STEP_SECONDS },
        helpText: 'Leave empty to keep the message until the user closes it.',
      },
    ],
  },
  WAIT: {
    type: 'WAIT',
    label: 'Wait',
    description: 'Pause the deployment for a number of seconds before the next step.',
    fields: [
      {
        key: 'seconds',
        label: 'Seconds',
        type: 'number',
        required: true,
        default: 60,
        range: { min: 1, max: MAX_STEP_SECONDS },
        helpText: 'From 1 second to 86,400 (one day). Cancelling the deployment ends the wait.',
      },
    ],
  },
} as const satisfies Record<'REBOOT' | 'MESSAGE' | 'WAIT', StepTypeDefinition>;
