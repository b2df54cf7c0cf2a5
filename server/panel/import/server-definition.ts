import { importTemplate } from "../../templates/import.ts";
import { portsNote, portsOf } from "./allocations.ts";
import type { SourcePanel, SourceServer } from "./source-panel.ts";

/**
 * A server's own definition: its egg converted with the server's startup and image, its
 * variables' values, its primary port and IP, memory, disk and CPU limits; `notes` says what did
 * not come along (limits we have no field for), and its ports.
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
  const limits: Record<string, number> = {};
  if (server.memory > 0) limits.memoryMiB = server.memory;
  if (server.disk > 0) limits.diskMiB = server.disk;
  if (server.cpu > 0) limits.cpuPercent = server.cpu;
  if (Object.keys(limits).length) definition.limits = limits;
  const dropped = [
    server.swap !== 0 ? `swap ${server.swap} MiB` : "",
    server.io !== 500 ? `IO weight ${server.io}` : "",
    server.threads ? `CPU threads ${server.threads}` : "",
  ].filter(Boolean);
  if (dropped.length) notes.push(`not kept (no such limit here): ${dropped.join(", ")}`);
  if (server.description) definition.description = server.description;
  if (environment === "host") definition.environment = { type: "host" };
  return { definition, notes };
}
