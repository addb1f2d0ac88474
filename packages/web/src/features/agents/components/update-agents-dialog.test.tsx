// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeviceListItem } from '@outpost/contract/devices';
import type { RolloutPlan } from '@outpost/contract/rollouts';
import { UpdateAgentsDialog } from './update-agents-dialog';
import type { useUpdateFlow } from './update-agents';

// Update Selected's Rollout section (docs/product/rollouts.md#agent-updates-in-waves): off, the
// update is sent as before (no plan); on, the plan of the deploy dialog's section goes with it.

function flowOf(confirm: (plan?: RolloutPlan) => void): ReturnType<typeof useUpdateFlow> {
  return {
    toUpdate: [{ id: 1, hostname: 'pc-1' } as DeviceListItem, { id: 2, hostname: 'pc-2' } as DeviceListItem],
    ask: () => undefined,
    confirm,
    cancel: () => undefined,
    isBusy: false,
  };
}

const section = () => screen.getByRole('region', { name: 'Rollout' });

describe('Update Selected with waves', () => {
  afterEach(cleanup);

  it('is collapsed and off by default, and sends no plan', async () => {
    const confirm = vi.fn();
    render(<UpdateAgentsDialog flow={flowOf(confirm)} />);
    expect(screen.getByText('Update 2 agents?')).toBeInTheDocument();
    expect(screen.queryByRole('switch', { name: 'Update in waves' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Update' }));
    expect(confirm).toHaveBeenCalledWith(undefined);
  });

  it('sends the plan once waves are on, without the maintenance-window option', async () => {
    const confirm = vi.fn();
    render(<UpdateAgentsDialog flow={flowOf(confirm)} />);
    await userEvent.click(within(section()).getByRole('button', { name: /Rollout/ }));
    expect(screen.queryByLabelText('Run only inside maintenance windows')).toBeNull();
    await userEvent.click(screen.getByRole('switch', { name: 'Update in waves' }));
    await userEvent.click(screen.getByRole('button', { name: 'Update in waves' }));
    expect(confirm).toHaveBeenCalledTimes(1);
    const plan = confirm.mock.calls[0]![0] as RolloutPlan;
    expect(plan.mode).toBe('percent');
    expect(plan.waves.at(-1)).toEqual({ percent: 100 });
  });

  it('does not send a broken plan, and says why next to the field', async () => {
    const confirm = vi.fn();
    render(<UpdateAgentsDialog flow={flowOf(confirm)} />);
    await userEvent.click(within(section()).getByRole('button', { name: /Rollout/ }));
    await userEvent.click(screen.getByRole('switch', { name: 'Update in waves' }));
    const soak = screen.getByLabelText('Soak time (minutes)');
    await userEvent.clear(soak);
    await userEvent.type(soak, '-5');
    await userEvent.click(screen.getByRole('button', { name: 'Update in waves' }));
    expect(confirm).not.toHaveBeenCalled();
  });
});
