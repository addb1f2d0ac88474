import { describe, expect, it } from 'vitest';
import { AgentMessage, refusedMessageId } from './agent-protocol';
import { EnrollmentTokenIdParams, CreateEnrollmentTokenBody } from './agents';
import { DeviceActionBody } from './device-actions';
import { BulkDeleteDevicesBody, DeviceListQuery } from './devices';
import { FileIdParams } from './files';
import { INT4_MAX, Id, IdParam, MAX_INPUT_DEPTH, findInputProblem, textProblem } from './input';
import { PortalClientMessage } from './live';
import { inputMessages } from './messages';
import { PackageIdParams, StepBody, StepIdParams, StepReorderBody } from './packages';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) {
    value = [value];
  }
  return value;
};

describe('ids are bounded to PostgreSQL integer', () => {
  it('accepts 1 to 2³¹−1 and refuses 0, fractions, and anything larger', () => {
    expect(Id.parse(INT4_MAX)).toBe(INT4_MAX);
    expect(IdParam.parse(String(INT4_MAX))).toBe(INT4_MAX);
    for (const bad of [0, -1, 1.5, INT4_MAX + 1, 1e20, Number.NaN]) {
      expect(Id.safeParse(bad).success).toBe(false);
      expect(IdParam.safeParse(String(bad)).success).toBe(false);
    }
    expect(Id.safeParse(INT4_MAX + 1).error?.issues[0]?.message).toBe(inputMessages.idInvalid);
  });

  it('applies to every id the API takes: params, queries and bodies', () => {
    const big = INT4_MAX + 1;
    expect(FileIdParams.safeParse({ id: String(big) }).success).toBe(false);
    expect(PackageIdParams.safeParse({ id: String(big) }).success).toBe(false);
    expect(StepIdParams.safeParse({ id: '1', stepId: String(big) }).success).toBe(false);
    expect(EnrollmentTokenIdParams.safeParse({ id: String(big) }).success).toBe(false);
    expect(CreateEnrollmentTokenBody.safeParse({ site_id: big }).success).toBe(false);
    expect(DeviceListQuery.safeParse({ site_id: String(big) }).success).toBe(false);
    expect(DeviceListQuery.safeParse({ page: '1e20' }).success).toBe(false);
    expect(BulkDeleteDevicesBody.safeParse({ device_ids: [1, big] }).success).toBe(false);
    expect(DeviceActionBody.safeParse({ device_ids: [big], action_type: 'restart' }).success).toBe(false);
    expect(StepReorderBody.safeParse({ stepOrders: [{ id: big, step_order: 1 }] }).success).toBe(false);
    expect(BulkDeleteDevicesBody.safeParse({ device_ids: [1, INT4_MAX] }).success).toBe(true);
  });
});

describe('findInputProblem', () => {
  it('finds a NUL character in any string or key, with its path', () => {
    expect(findInputProblem({ a: [{ b: 'x\u0000y' }] })).toEqual({
      path: 'a.0.b',
      message: inputMessages.nulCharacter,
    });
    expect(findInputProblem({ 'k\u0000': 1 })).toEqual({
      path: 'k\u0000',
      message: inputMessages.nulCharacter,
    });
    expect(findInputProblem('\u0000')).toEqual({ path: '', message: inputMessages.nulCharacter });
    expect(findInputProblem({ a: 'fine', b: [1, true, null], c: '\\u0000 as text is fine' })).toBeNull();
  });

  it('finds an unpaired UTF-16 surrogate in any string or key; pairs (emoji) are text', () => {
    const ill = inputMessages.illFormedText;
    for (const text of ['\ud800', 'a\udbffb', '\udc00', 'x\udfff', '\ude00\ud83d', 'ok\ud83d']) {
      expect({ text, problem: textProblem(text) }).toEqual({ text, problem: ill });
    }
    for (const text of ['', 'plain', '\ud83d\ude80', 'caf\u00e9 \u202e \uffff', '\\ud800 as text']) {
      expect({ text, problem: textProblem(text) }).toEqual({ text, problem: null });
    }
    expect(findInputProblem({ a: [{ b: 'x\ud800' }] })).toEqual({ path: 'a.0.b', message: ill });
    expect(findInputProblem({ data: { ['k\udc00']: 'v' } })).toEqual({ path: 'data.k\udc00', message: ill });
  });

  it('names the messageId of a refused agent frame only when the agent can recognise it', () => {
    expect(refusedMessageId({ type: 'activity', messageId: 'm-1', events: 'garbage' })).toBe('m-1');
    for (const frame of [
      null,
      [],
      'm-1',
      { messageId: 7 },
      { messageId: '' },
      { messageId: 'x'.repeat(129) },
    ]) {
      expect(refusedMessageId(frame)).toBeNull();
    }
    expect(refusedMessageId({ messageId: 'm\ud800' })).toBeNull();
    expect(refusedMessageId({ messageId: 'm\u0000' })).toBeNull();
  });

  it(`allows ${MAX_INPUT_DEPTH} levels of nesting and refuses more, without recursion`, () => {
    expect(findInputProblem(nested(MAX_INPUT_DEPTH))).toBeNull();
    expect(findInputProblem(nested(MAX_INPUT_DEPTH + 1))?.message).toBe(
      inputMessages.tooDeep(MAX_INPUT_DEPTH),
    );
    // Deep enough that a recursive walk would overflow the stack.
    expect(findInputProblem(nested(200_000))?.message).toBe(inputMessages.tooDeep(MAX_INPUT_DEPTH));
  });
});

describe('messages parsed outside HTTP obey the same rules', () => {
  it('refuses a NUL in an agent hello and in a portal subscription', () => {
    const hello = {
      type: 'hello',
      protocolVersion: 1,
      agentVersion: '1.0.0',
      hostname: 'pc\u000001',
      osType: 'windows',
      osVersion: '11',
      sessions: [],
    };
    const refused = AgentMessage.safeParse(hello);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.some((i) => i.message === inputMessages.nulCharacter)).toBe(true);
    expect(AgentMessage.safeParse({ ...hello, hostname: 'pc01' }).success).toBe(true);
    expect(PortalClientMessage.safeParse({ type: 'ping', payload: nested(100) }).success).toBe(false);
    expect(
      PortalClientMessage.safeParse({ type: 'subscribe', payload: { subscriptionKey: 'devices\u0000' } })
        .success,
    ).toBe(false);
  });

  it('checks step details sent as a JSON string, where the NUL is only escaped text', () => {
    const step = { step_name: 'Flush', step_type: 'CMD' as const };
    const asText = StepBody.safeParse({
      ...step,
      step_details: JSON.stringify({ command: 'ipconfig\u0000' }),
    });
    expect(asText.success).toBe(false);
    expect(asText.error?.issues[0]?.message).toBe(inputMessages.nulCharacter);
    expect(
      StepBody.safeParse({ ...step, step_details: JSON.stringify({ command: 'ipconfig' }) }).success,
    ).toBe(true);
  });
});
