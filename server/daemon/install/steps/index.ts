import type { OperationOf, OperationType } from "../../../templates/index.ts";
import type { StepContext, StepResult } from "../environment.ts";
import { alterfileStep } from "./alterfile.ts";
import { archiveStep } from "./archive.ts";
import { commandStep } from "./command.ts";
import { consoleStep } from "./console.ts";
import { curseforgeStep } from "./curseforge.ts";
import { dockerpullStep } from "./dockerpull.ts";
import { downloadStep } from "./download.ts";
import { extractStep } from "./extract.ts";
import { fabricdlStep } from "./fabricdl.ts";
import { forgedlStep } from "./forgedl.ts";
import { javadlStep } from "./javadl.ts";
import { mkdirStep } from "./mkdir.ts";
import { mojangdlStep } from "./mojangdl.ts";
import { moveStep } from "./move.ts";
import { mrpackStep } from "./mrpack.ts";
import { neoforgedlStep } from "./neoforgedl.ts";
import { resolveforgeversionStep, resolveneoforgeversionStep } from "./resolveforgeversion.ts";
import { sleepStep } from "./sleep.ts";
import { spongedlStep } from "./spongedl.ts";
import { steamgamedlStep } from "./steamgamedl.ts";
import { writefileStep } from "./writefile.ts";

export type StepHandler<T extends OperationType> = (
  op: OperationOf<T>,
  ctx: StepContext,
) => Promise<StepResult | undefined> | Promise<void>;

/** The executor of every operation type the template module knows; the type makes a missing one a compile error. */
export const stepHandlers: { [T in OperationType]: StepHandler<T> } = {
  alterfile: alterfileStep,
  archive: archiveStep,
  command: commandStep,
  console: consoleStep,
  curseforge: curseforgeStep,
  dockerpull: dockerpullStep,
  download: downloadStep,
  extract: extractStep,
  fabricdl: fabricdlStep,
  forgedl: forgedlStep,
  javadl: javadlStep,
  mkdir: mkdirStep,
  mojangdl: mojangdlStep,
  move: moveStep,
  mrpack: mrpackStep,
  neoforgedl: neoforgedlStep,
  resolveforgeversion: resolveforgeversionStep,
  resolveneoforgeversion: resolveneoforgeversionStep,
  sleep: sleepStep,
  spongedl: spongedlStep,
  steamgamedl: steamgamedlStep,
  writefile: writefileStep,
};
