import { eq, sql } from 'drizzle-orm';
import { deploymentStepLogs } from '../../../db/schema/index';
import type { Executor, Reader } from '../../../lib/db';

// The statements of storing a step's output in a custom field (step-output.ts): the log's
// output as written, and a note added to it.

/** The standard output a step log holds (its head and tail when it was cut). */
export async function readStepLogStdout(db: Reader, logId: number): Promise<string | null> {
  const [row] = await db
    .select({ stdout: deploymentStepLogs.stdoutLog })
    .from(deploymentStepLogs)
    .where(eq(deploymentStepLogs.id, logId))
    .limit(1);
  return row?.stdout ?? null;
}

/** Adds a line to the notes of a step log (the `output` column the step's log shows). */
export async function appendStepLogNote(db: Executor, logId: number, note: string): Promise<void> {
  await db
    .update(deploymentStepLogs)
    .set({
      output: sql`case when ${deploymentStepLogs.output} is null or ${deploymentStepLogs.output} = ''
        then ${note} else ${deploymentStepLogs.output} || E'\\n' || ${note} end`,
    })
    .where(eq(deploymentStepLogs.id, logId));
}
