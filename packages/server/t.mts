import { openDatabase } from './src/db/client';
import { sql } from 'drizzle-orm';
const t = Date.now();
const d = await openDatabase({ pgliteDir: '/tmp/emb/t1/pglite' });
console.log('open ms', Date.now() - t);
console.log(((await d.db.execute(sql`show shared_buffers`)) as any).rows);
await d.close();
