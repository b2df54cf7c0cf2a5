import { importTemplate } from "../../templates/import.ts";
import { cpusetProblem, ioWeightRange } from "../../templates/limits.ts";
import type { ServerLimits } from "../../templates/types.ts";
import { portsNote, portsOf } from "./allocations.ts";
import type { SourcePanel, SourceServer } from "./source-panel.ts";

/**
 * A server's own definition: its egg converted with the server's startup and image, its
 * variables' values, its primary port and IP, its limits; `notes` says what did not come along
 * (a limit we cannot hold as it was), and its ports.
 */
export function serverDefinition(
  server: SourceServer,
  source: Pick<SourcePanel, "eggs" | "allocations">,
  environment: "host" | undefined,
): { definition: Record<string, unknown>; notes: string[] } | { problem: string } {
  const egg = source.eggs.find((e) => e.id === server.eggId);
  if (!egg) return { problem: "its egg is missing from the source" };
  const document = {
    ...egg.document,
    startup: server.startup,
    docker_images: { [server.image]: server.image },
  };
  const converted = importTemplate(document);
  if (!converted.ok) {
    const first = converted.problems[0];
    return { problem: `does not convert (${first ? `${first.path}: ${first.problem}` : "invalid"})` };
  }
  const {
    name: _name,
    supportedEnvironments: _supported,
    ...definition
  } = converted.template as unknown as Record<string, unknown>;
  const notes: string[] = [];
  const data = definition.data as Record<string, { type?: string; value?: unknown }>;
  for (const [key, value] of Object.entries(server.variables)) {
    const variable = data[key];
    if (!variable) continue;
    variable.value =
      variable.type === "integer" && /^-?\d+$/.test(value)
        ? Number(value)
        : variable.type === "boolean"
          ? ["1", "true", "on", "yes"].includes(value.toLowerCase())
          : value;
  }
  const ports = portsOf(server, source.allocations);
  if (data.port && ports.primary) data.port.value = ports.primary.port;
  if (data.ip && ports.primary) data.ip.value = ports.primary.ip;
  if (data.memory && server.memory > 0) data.memory.value = server.memory;
  const portsSaid = portsNote(ports);
  if (portsSaid) notes.push(portsSaid);
  const { limits, dropped } = serverLimits(server);
  if (Object.keys(limits).length) definition.limits = limits;
  if (dropped.length) notes.push(`not kept: ${dropped.join(", ")}`);
  if (server.description) definition.description = server.description;
  if (environment === "host") definition.environment = { type: "host" };
  return { definition, notes };
}

/**
 * Pterodactyl's limits as ours: memory, disk and CPU as they are (0 = unlimited there, none
 * here); swap beside a memory limit (0 none, -1 unlimited); IO weight unless its default 500;
 * CPU threads where they are a cpuset list (spaces dropped). What cannot be held is `dropped`.
 */
function serverLimits(server: SourceServer): { limits: ServerLimits; dropped: string[] } {
  const limits: ServerLimits = {};
  const dropped: string[] = [];
  if (server.memory > 0) limits.memoryMiB = server.memory;
  if (server.disk > 0) limits.diskMiB = server.disk;
  if (server.cpu > 0) limits.cpuPercent = server.cpu;
  if (server.swap > 0 || server.swap === -1) {
    if (limits.memoryMiB === undefined)
      dropped.push(`swap ${server.swap} MiB (no memory limit to set it beside)`);
    else limits.swapMiB = server.swap === -1 ? "unlimited" : server.swap;
  } else if (server.swap < -1) {
    dropped.push(`swap ${server.swap} MiB`);
  }
  if (server.io !== 500) {
    if (server.io >= ioWeightRange.min && server.io <= ioWeightRange.max) limits.ioWeight = server.io;
    else dropped.push(`IO weight ${server.io} (outside ${ioWeightRange.min}-${ioWeightRange.max})`);
  }
  const threads = server.threads?.replace(/\s+/g, "");
  if (threads) {
    const problem = cpusetProblem(threads);
    if (problem) dropped.push(`CPU threads ${server.threads} (${problem})`);
    else limits.cpuThreads = threads;
  }
  return { limits, dropped };
}
