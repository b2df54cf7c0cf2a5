import { ApiError } from "../../../errors.ts";

/**
 * CPU threads and IO weight, as both drivers set them. A server pinned to threads the node cannot
 * pin it to is refused (it would use every CPU of the host); an IO weight is a share under
 * contention, not a bound, so where it cannot be set the server runs with the default share.
 */

/** What a start of a server with CPU threads answers where the node cannot pin it to them. */
export const cpuThreadsUnavailable = (cpus: string, reason: string): ApiError =>
  new ApiError(
    409,
    "ErrCpuThreadsUnavailable",
    "This server may run only on CPU threads ${cpus}, and the node cannot hold it to them (${reason}). Name only threads this host has (nproc counts them); on cgroup v2 enable the cpuset controller for the node's cgroup (systemd: Delegate=yes in its unit; else write +cpuset to the parent's cgroup.subtree_control) and restart the node; on cgroup v1 mount the cpuset hierarchy; or clear the server's CPU threads.",
    { cpus, reason },
  );

/**
 * A weight on Docker's and cgroup v1 CFQ's scale (10–1000, 500 for an unweighted group) on a
 * scale whose unweighted group has 100 (io.weight, io.bfq.weight, blkio.bfq.weight): the same
 * ratio to an unweighted server either way.
 */
export const weightPerHundred = (weight: number): number => Math.max(1, Math.round(weight / 5));
