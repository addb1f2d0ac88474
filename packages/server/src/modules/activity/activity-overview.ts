import type {
  ActivityOverviewPage,
  ActivityOverviewSummary,
  ActivitySortKey,
  DeviceActivityRow,
  PagedOverviewQuery,
  SortOrder,
  UtilizationBand,
} from '@outpost/contract/activity';
import {
  ACTIVITY_DEFAULT_SORT,
  UTILIZATION_BANDS,
  deviceLabel,
  siteLabel,
  utilizationBand,
} from '@outpost/contract/activity';
import { paginate } from '@outpost/contract/envelope';

// The Device Activity overview of one scope, held in memory to answer pages (docs/architecture.md#device-activity
// "Paged overview"): the rows of one computation, the whole scope's counters and cards, and the
// table's orders, each sorted once and kept. Filtering, sorting and summaries follow what the web
// page did on the loaded rows (docs/product/activity.md#device-activity-overview): search over the name as shown and the site name,
// case-insensitive; the band of the 30-day figure; sessions today; ties by device name, then id.

/** The table's text order (the web page used localeCompare with these options). */
const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

const BAND_INDEX = new Map<UtilizationBand, number>(UTILIZATION_BANDS.map((b, i) => [b.key, i]));

/** Devices by the name as shown: ids and labels per row, and the row indices in name order. */
export type NameOrder = {
  readonly ids: Int32Array;
  readonly labels: readonly string[];
  readonly order: Int32Array;
};

const isAscending = (ids: Int32Array) => ids.every((id, i) => i === 0 || ids[i - 1]! < id);

/** A piece of work this small runs without a pause (about 5–20 ms of one core). */
const STEP = 8_192;

/**
 * Sorts in pieces, pausing (`yield`) between them: slices of STEP sorted one by one, then
 * merged pairwise. 100,000 device names sorted by the collator in one go hold the event loop for
 * half a second; in pieces, other requests are answered in between.
 */
export function* sortInSteps(
  items: Int32Array,
  cmp: (a: number, b: number) => number,
): Generator<void, Int32Array> {
  for (let from = 0; from < items.length; from += STEP) {
    items.subarray(from, from + STEP).sort(cmp);
    yield;
  }
  let source: Int32Array = items;
  let target: Int32Array = new Int32Array(items.length);
  for (let width = STEP; width < items.length; width *= 2) {
    let work = 0;
    for (let left = 0; left < items.length; left += 2 * width) {
      const mid = Math.min(left + width, items.length);
      const end = Math.min(left + 2 * width, items.length);
      let [i, j, k] = [left, mid, left];
      while (i < mid && j < end) {
        target[k++] = cmp(source[i]!, source[j]!) <= 0 ? source[i++]! : source[j++]!;
      }
      target.set(source.subarray(i, mid), k);
      target.set(source.subarray(j, end), k + mid - i);
      work += end - left;
      if (work >= STEP) {
        work = 0;
        yield;
      }
    }
    [source, target] = [target, source];
  }
  return source;
}

/**
 * The row indices sorted by label, then id (a generator: see sortInSteps). Names rarely change
 * between two computations, so when both are in id order (as the query returns them) the previous
 * order is kept for every device whose name is unchanged, and only new or renamed devices are
 * sorted and merged in.
 */
export function* sortByName(
  ids: Int32Array,
  labels: readonly string[],
  previous?: NameOrder,
): Generator<void, Int32Array> {
  const cmp = (a: number, b: number) => collator.compare(labels[a]!, labels[b]!) || ids[a]! - ids[b]!;
  const all = Int32Array.from(ids, (_, i) => i);
  if (!previous || !isAscending(ids) || !isAscending(previous.ids)) {
    return yield* sortInSteps(all, cmp);
  }
  // join the two id-ordered lists: which previous row is which current one, name unchanged
  const kept = new Int32Array(previous.ids.length).fill(-1);
  const isNew = new Uint8Array(ids.length).fill(1);
  for (let i = 0, j = 0; i < ids.length && j < previous.ids.length;) {
    if (previous.ids[j]! < ids[i]!) {
      j++;
    } else if (previous.ids[j]! > ids[i]!) {
      i++;
    } else {
      if (previous.labels[j] === labels[i]) {
        kept[j] = i;
        isNew[i] = 0;
      }
      i++;
      j++;
    }
  }
  const old = previous.order.map((j) => kept[j]!).filter((i) => i >= 0);
  const added = yield* sortInSteps(
    all.filter((i) => isNew[i] === 1),
    cmp,
  );
  const merged = new Int32Array(ids.length);
  let n = 0;
  let k = 0;
  for (const item of added) {
    // binary search: where the item goes among the old ones from k on
    let lo = k;
    let hi = old.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cmp(old[mid]!, item) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    merged.set(old.subarray(k, lo), n);
    n += lo - k;
    k = lo;
    merged[n++] = item;
  }
  merged.set(old.subarray(k), n);
  return merged;
}

/** Maps in pieces of STEP items, pausing between them. */
export function* mapInSteps<T, U>(items: readonly T[], fn: (item: T) => U): Generator<void, U[]> {
  const out: U[] = [];
  for (let from = 0; from < items.length; from += STEP) {
    for (const item of items.slice(from, from + STEP)) {
      out.push(fn(item));
    }
    yield;
  }
  return out;
}

/** Runs a generator of steps to its end at once. */
export function finishAtOnce<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) {
      return next.value;
    }
  }
}

/** Runs a generator of steps, letting the event loop answer other work between them. */
export async function finishInSteps<T>(steps: Generator<void, T>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) {
      return next.value;
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The counters and cards over every row (docs/product/activity.md#device-activity-overview; the filters narrow the table only). */
export function summarize(rows: readonly DeviceActivityRow[]): ActivityOverviewSummary {
  const counts = UTILIZATION_BANDS.map(() => 0);
  let active = 0;
  let sessions = 0;
  let sum7 = 0;
  let sum14 = 0;
  let sum30 = 0;
  for (const row of rows) {
    counts[BAND_INDEX.get(utilizationBand(row.utilization_30d))!]! += 1;
    if (row.login_sessions_today > 0) {
      active += 1;
    }
    sessions += row.login_sessions_today;
    sum7 += row.utilization_7d;
    sum14 += row.utilization_14d;
    sum30 += row.utilization_30d;
  }
  const mean = (sum: number) => (rows.length ? sum / rows.length : 0);
  return {
    total_devices: rows.length,
    active_today: active,
    inactive_today: rows.length - active,
    total_sessions_today: sessions,
    high_utilization_30d: counts[BAND_INDEX.get('high')!]!,
    distribution: UTILIZATION_BANDS.map((b, i) => ({ band: b.key, count: counts[i]! })),
    average_utilization: {
      utilization_7d: mean(sum7),
      utilization_14d: mean(sum14),
      utilization_30d: mean(sum30),
    },
  };
}

type Filters = Pick<PagedOverviewQuery, 'search' | 'utilization' | 'sessions'>;

const EMPTY = new Int32Array(0);

/**
 * One computation of a scope's overview. Rows are in id order; `page` answers from memory: the
 * order of the requested column (sorted on first use, then kept), filtered, sliced. Made with
 * `build` (in steps, between which other requests are answered) or `of` (at once: tests, small
 * scopes).
 */
export class OverviewSnapshot {
  summary!: ActivityOverviewSummary;
  names: NameOrder = { ids: EMPTY, labels: [], order: EMPTY };
  /** per row: the name as shown, and the site name, lower-cased (search) */
  private searchName: string[] = [];
  private searchSite: string[] = [];
  private band = new Uint8Array(0);
  /** per row: its place in name order (the tie-break of every column) */
  private nameRank = EMPTY;
  /** per row: its name's rank, equal names sharing one (sorting by Device), made on first use */
  private nameGroup: Int32Array | null = null;
  /** per row: its site label's rank, equal labels sharing one */
  private siteRank = EMPTY;
  private readonly orders = new Map<string, Uint32Array>();
  private serialised: string | null = null;

  private constructor(private readonly rows: readonly DeviceActivityRow[]) {}

  /**
   * The snapshot of these rows, made in steps; `previous` is the last computation of the same
   * scope, whose name order is reused (see sortByName).
   */
  static build(rows: readonly DeviceActivityRow[], previous?: OverviewSnapshot): Promise<OverviewSnapshot> {
    const snapshot = new OverviewSnapshot(rows);
    return finishInSteps(snapshot.prepare(previous)).then(() => snapshot);
  }

  /** The same, at once. */
  static of(rows: readonly DeviceActivityRow[], previous?: OverviewSnapshot): OverviewSnapshot {
    const snapshot = new OverviewSnapshot(rows);
    finishAtOnce(snapshot.prepare(previous));
    return snapshot;
  }

  private *prepare(previous?: OverviewSnapshot): Generator<void, void> {
    const rows = this.rows;
    this.summary = summarize(rows);
    const labels = rows.map(deviceLabel);
    this.searchName = labels.map((l) => l.toLowerCase());
    this.searchSite = rows.map((r) => (r.site_name ?? '').toLowerCase());
    this.band = Uint8Array.from(rows, (r) => BAND_INDEX.get(utilizationBand(r.utilization_30d))!);
    yield;

    const ids = Int32Array.from(rows, (r) => r.agent_id);
    const order = yield* sortByName(ids, labels, previous?.names);
    this.names = { ids, labels, order };
    this.nameRank = new Int32Array(rows.length);
    order.forEach((i, rank) => {
      this.nameRank[i] = rank;
    });
    yield;

    const sites = [...new Set(rows.map(siteLabel))].sort(collator.compare);
    const siteRanks = new Map<string, number>();
    sites.forEach((s, i) => {
      const prev = sites[i - 1];
      siteRanks.set(s, prev !== undefined && collator.compare(prev, s) === 0 ? siteRanks.get(prev)! : i);
    });
    this.siteRank = Int32Array.from(rows, (r) => siteRanks.get(siteLabel(r))!);
    yield;

    // the order the web app asks for first
    this.order(ACTIVITY_DEFAULT_SORT.sort, ACTIVITY_DEFAULT_SORT.order);
  }

  /** The product's full list ({ success, data } as JSON), made on first use and kept. */
  get json(): string {
    this.serialised ??= JSON.stringify({ success: true, data: this.rows });
    return this.serialised;
  }

  page(q: PagedOverviewQuery): ActivityOverviewPage {
    const order = this.order(q.sort, q.order);
    const from = (q.page - 1) * q.limit;
    const to = from + q.limit;
    const matches = this.filter(q);
    if (!matches) {
      return this.answer(q, this.rows.length, Array.from(order.subarray(from, to)));
    }
    const picked: number[] = [];
    let total = 0;
    for (const i of order) {
      if (matches(i)) {
        if (total >= from && total < to) {
          picked.push(i);
        }
        total += 1;
      }
    }
    return this.answer(q, total, picked);
  }

  private answer(q: PagedOverviewQuery, total: number, picked: number[]): ActivityOverviewPage {
    return {
      data: picked.map((i) => this.rows[i]!),
      pagination: paginate(q.page, q.limit, total),
      summary: this.summary,
    };
  }

  /** The filters as a test on a row index, or null when nothing is filtered. */
  private filter(f: Filters): ((i: number) => boolean) | null {
    const term = f.search.trim().toLowerCase();
    const band = f.utilization ? BAND_INDEX.get(f.utilization)! : -1;
    const active = f.sessions === null ? null : f.sessions === 'active';
    if (!term && band < 0 && active === null) {
      return null;
    }
    return (i) =>
      (!term || this.searchName[i]!.includes(term) || this.searchSite[i]!.includes(term)) &&
      (band < 0 || this.band[i] === band) &&
      (active === null || this.rows[i]!.login_sessions_today > 0 === active);
  }

  /** Row indices sorted by the column, ties by device name then id (the web page's order). */
  private order(key: ActivitySortKey, direction: SortOrder): Uint32Array {
    const name = `${key}:${direction}`;
    const kept = this.orders.get(name);
    if (kept) {
      return kept;
    }
    const sign = direction === 'asc' ? 1 : -1;
    const value = this.sortValues(key);
    const rank = this.nameRank;
    const order = Uint32Array.from(this.rows, (_, i) => i).sort(
      (a, b) => sign * (value[a]! - value[b]!) || rank[a]! - rank[b]!,
    );
    this.orders.set(name, order);
    return order;
  }

  /** Each row's value of the column, as a number (names by rank). */
  private sortValues(key: ActivitySortKey): ArrayLike<number> {
    switch (key) {
      case 'device':
        return this.nameGroups();
      case 'site':
        return this.siteRank;
      case 'sessions':
        return Float64Array.from(this.rows, (r) => r.login_sessions_today);
      case 'utilization_7d':
      case 'utilization_14d':
      case 'utilization_30d':
        return Float64Array.from(this.rows, (r) => r[key]);
    }
  }

  /** Equal names (as the collator sees them: 'pc-1' and 'PC-1') share one rank. */
  private nameGroups(): Int32Array {
    if (this.nameGroup) {
      return this.nameGroup;
    }
    const { order, labels } = this.names;
    const group = new Int32Array(this.rows.length);
    for (let rank = 0; rank < order.length; rank++) {
      const [i, before] = [order[rank]!, order[rank - 1]];
      const same = before !== undefined && collator.compare(labels[before]!, labels[i]!) === 0;
      group[i] = same ? group[before]! : rank;
    }
    this.nameGroup = group;
    return group;
  }
}
