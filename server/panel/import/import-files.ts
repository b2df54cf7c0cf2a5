import { errorText } from "./error-text.ts";
import type { PanelImport } from "./importer.ts";
import type { SourceServer } from "./source-panel.ts";
import { copyVolume, localVolume, type VolumeCopy, type VolumeSource } from "./volumes.ts";
import { wingsVolume } from "./wings-sftp.ts";

/** A progress line every this many files written. */
const progressEvery = 200;

/**
 * A server's files into its folder here: from its Wings volume on this host (`--volumes`) when
 * that has the server's folder, else over its Wings node's SFTP (`--sftp`). Each file is checked
 * by size and one already there with its size is skipped, so a run cut short goes on.
 */
export async function importFiles(run: PanelImport, server: SourceServer, id: string): Promise<void> {
  const { volumes, sftp } = run.options;
  if (!volumes && !sftp) return;
  const label = `files of ${server.name}`;
  const local = volumes ? localVolume(volumes, server.uuid) : undefined;
  const node = run.source.nodes.find((n) => n.id === server.nodeId);
  if (!local && (!sftp || !node)) {
    run.line("skipped", `${label}: no folder ${server.uuid} in the volumes`);
    return;
  }
  const from = local ? `${volumes}/${server.uuid}` : `SFTP ${node?.fqdn}:${node?.sftpPort}`;
  if (!run.options.apply) {
    run.line("created", `${label} from ${from}`);
    return;
  }
  let source: VolumeSource | undefined = local;
  let close = () => {};
  try {
    if (!source && sftp && node) {
      const remote = await wingsVolume(node.fqdn, node.sftpPort, server.uuidShort, sftp);
      run.note(`${label}: over SFTP from ${node.fqdn}:${node.sftpPort}, host key ${remote.hostKey}`);
      source = remote;
      close = () => remote.close();
    }
    const client = await run.services.servers.nodeOf(id);
    const copied = await copyVolume(source as VolumeSource, client.files, id, (sofar: VolumeCopy, file) => {
      if (sofar.copied % progressEvery === 0)
        run.note(`${label}: ${sofar.copied} copied so far (${sofar.bytes} bytes), at ${file}`);
    });
    run.line(
      copied.copied ? "created" : "kept",
      `${label} from ${from}: ${copied.copied} copied, ${copied.same} already there (${copied.bytes} bytes)`,
    );
  } catch (err) {
    run.line("skipped", `${label}: ${errorText(err)} (run the import again to go on)`);
  } finally {
    close();
  }
}
