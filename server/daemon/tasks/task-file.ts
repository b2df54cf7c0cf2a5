import fs from "node:fs/promises";
import path from "node:path";
import type { TaskRunView } from "../../contract/node/task-wire.ts";
import { privateFileMode } from "../../secrets/private-files.ts";
import { parseTask, parseTaskSettings, type Task, type TaskSettings } from "../../templates/tasks.ts";

/** What `<servers>/<id>.cron` holds: the reference's task file (api.md §6), with our task fields. */
export interface TaskFileContent {
  tasks: Record<string, Task>;
  settings: TaskSettings;
}

/** What `<servers>/<id>.task-runs` holds: each task's last runs and the backups it made (oldest first). */
export interface TaskRunsContent {
  runs: Record<string, TaskRunView[]>;
  backups: Record<string, string[]>;
  nextRunId: number;
}

const cronFile = (dir: string, id: string) => path.join(dir, `${id}.cron`);
const runsFile = (dir: string, id: string) => path.join(dir, `${id}.task-runs`);

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Written whole to a temporary file and renamed, so a crash leaves the old file or the new one. */
async function writeJson(file: string, text: string): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temp, text, { mode: privateFileMode });
  await fs.rename(temp, file);
}

export async function hasTaskFile(dir: string, id: string): Promise<boolean> {
  return fs.stat(cronFile(dir, id)).then(
    () => true,
    () => false,
  );
}

/**
 * Reads a server's tasks; a task the file holds that no longer parses (an
 * edit by hand) is left out and reported, not fatal to the others.
 */
export async function loadTaskFile(
  dir: string,
  id: string,
  log: (msg: string) => void,
): Promise<{ file: TaskFileContent; runs: TaskRunsContent }> {
  const raw = ((await readJson(cronFile(dir, id))) ?? {}) as Record<string, unknown>;
  const { timezone, concurrentLimit, limitMode } = raw;
  const parsedSettings = parseTaskSettings({ timezone, concurrentLimit, limitMode });
  if (!parsedSettings.settings)
    log(`server ${id}: task settings reset: ${parsedSettings.problems[0]?.problem}`);
  const settings = parsedSettings.settings ?? parseTaskSettings({}).settings!;
  const tasks: Record<string, Task> = {};
  const listed = typeof raw.tasks === "object" && raw.tasks !== null ? raw.tasks : {};
  for (const [taskId, value] of Object.entries(listed)) {
    const { task, problems } = parseTask(value, settings.timezone);
    if (task) tasks[taskId] = task;
    else log(`server ${id}: task ${taskId} not loaded: ${problems[0]?.path} ${problems[0]?.problem}`);
  }
  const runsRaw = ((await readJson(runsFile(dir, id)).catch(() => undefined)) ??
    {}) as Partial<TaskRunsContent>;
  const runs: TaskRunsContent = {
    runs: runsRaw.runs ?? {},
    backups: runsRaw.backups ?? {},
    nextRunId: runsRaw.nextRunId ?? 1,
  };
  return { file: { tasks, settings }, runs };
}

/** One writer per server: saves run one after the other, the last always reaching the disk. */
export class TaskFileWriter {
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly id: string,
  ) {}

  save(file: TaskFileContent): Promise<void> {
    // Taken now: later changes to the objects belong to a later save.
    const content = JSON.stringify({ tasks: file.tasks, ...file.settings });
    return this.queue(() => writeJson(cronFile(this.dir, this.id), content));
  }

  saveRuns(runs: TaskRunsContent): Promise<void> {
    const content = JSON.stringify(runs);
    return this.queue(() => writeJson(runsFile(this.dir, this.id), content));
  }

  async remove(): Promise<void> {
    await this.queue(async () => {
      await fs.rm(cronFile(this.dir, this.id), { force: true });
      await fs.rm(runsFile(this.dir, this.id), { force: true });
    });
  }

  private queue(write: () => Promise<void>): Promise<void> {
    const next = this.chain.then(write);
    this.chain = next.catch(() => {});
    return next;
  }
}
