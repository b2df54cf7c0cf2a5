import {
  BackupCreateQuery,
  BackupFilesAnswer,
  BackupFilesQuery,
  BackupList,
  BackupParams,
  BackupPolicyBody,
  BackupRestoreBody,
  BackupUpdateBody,
  BackupVerifyAnswer,
  BackupView,
} from "../contract/api/backups.ts";
import { ServerIdParams } from "../contract/api/servers.ts";
import { ApiError } from "../errors.ts";
import { maxJsonDepth, nestsDeeperThan } from "../http/json-body.ts";
import { Backups } from "../panel/backups.ts";
import { type Api, type RouteContext, typed } from "./types.ts";

const byServer = { params: ServerIdParams };
const byBackup = { params: BackupParams };

/** backups under /api/servers/{id}/backup (reference §2.5 scopes, §12.19 behaviour). */
export function backupRoutes(app: Api, { services }: RouteContext): void {
  const backups = new Backups(services.db, services.servers, (event) => services.notifier.notify(event));

  // These take a JSON body.
  const json = typed(app);
  json.get(
    "/api/servers/:id/backup-policy",
    {
      config: { access: "server.backup.view" },
      schema: { ...byServer, response: { 200: BackupPolicyBody } },
    },
    (request) => backups.policy(request.params.id),
  );

  // Applying a policy removes backups: the same right as deleting them.
  json.put(
    "/api/servers/:id/backup-policy",
    {
      config: { access: "server.backup.delete" },
      schema: { ...byServer, body: BackupPolicyBody, response: { 200: BackupPolicyBody } },
    },
    (request) => backups.setPolicy(request.params.id, request.body),
  );

  // Unpinning hands a backup back to the policy, which may remove it.
  json.put(
    "/api/servers/:id/backup/:backupId",
    {
      config: { access: "server.backup.delete" },
      schema: { ...byBackup, body: BackupUpdateBody, response: { 200: BackupView } },
    },
    (request) => backups.pin(request.params.id, request.params.backupId, request.body.pinned),
  );

  // A restore takes an optional `{"paths": [...]}` (issue 38). The reference's client sends none, or an
  // empty one with any content type: that, and anything that is not JSON, is the whole backup.
  app.register(async (scope) => {
    const parseJson = scope.getDefaultJsonParser("error", "error");
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "string", bodyLimit: 1024 * 1024 }, (request, body, done) => {
      const text = String(body);
      const json = /^application\/(.+\+)?json\b/i.test(request.headers["content-type"] ?? "");
      if (!json || text.trim() === "") return done(null, {});
      if (nestsDeeperThan(text, maxJsonDepth)) {
        return done(
          new ApiError(400, "ErrInvalidJson", "the JSON body nests deeper than ${max} levels", {
            max: maxJsonDepth,
          }),
          undefined,
        );
      }
      parseJson(request, text, done);
    });
    // A call without any body reaches no parser.
    scope.addHook("preValidation", async (request) => {
      request.body ??= {};
    });
    typed(scope).post(
      "/api/servers/:id/backup/restore/:backupId",
      { config: { access: "server.backup.restore" }, schema: { ...byBackup, body: BackupRestoreBody } },
      async (request, reply) => {
        // Answers once the files are back (the reference answered first and restored after).
        await backups.restore(request.params.id, request.params.backupId, request.body.paths);
        return reply.status(204).send();
      },
    );
  });

  // The unsafe calls carry no body (the reference's client may still send a
  // content type, or an empty JSON body): whatever comes is read and ignored.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 1024 }, (_request, _body, done) =>
      done(null, undefined),
    );
    const api = typed(scope);

    api.get(
      "/api/servers/:id/backup",
      { config: { access: "server.backup.view" }, schema: { ...byServer, response: { 200: BackupList } } },
      (request) => backups.list(request.params.id),
    );

    api.get(
      "/api/servers/:id/backup/:backupId",
      { config: { access: "server.backup.view" }, schema: { ...byBackup, response: { 200: BackupView } } },
      (request) => backups.get(request.params.id, request.params.backupId),
    );

    api.post(
      "/api/servers/:id/backup/create",
      { config: { access: "server.backup.create" }, schema: { ...byServer, querystring: BackupCreateQuery } },
      async (request, reply) => {
        await backups.create(request.params.id, request.query.name);
        return reply.status(204).send();
      },
    );

    api.delete(
      "/api/servers/:id/backup/:backupId",
      { config: { access: "server.backup.delete" }, schema: byBackup },
      async (request, reply) => {
        await backups.delete(request.params.id, request.params.backupId);
        return reply.status(204).send();
      },
    );

    api.get(
      "/api/servers/:id/backup/:backupId/files",
      {
        config: { access: "server.backup.view" },
        schema: { ...byBackup, querystring: BackupFilesQuery, response: { 200: BackupFilesAnswer } },
      },
      (request) => backups.files(request.params.id, request.params.backupId, request.query.path ?? ""),
    );

    api.post(
      "/api/servers/:id/backup/:backupId/verify",
      {
        config: { access: "server.backup.view" },
        schema: { ...byBackup, response: { 200: BackupVerifyAnswer } },
      },
      (request) => backups.verify(request.params.id, request.params.backupId),
    );

    api.get(
      "/api/servers/:id/backup/download/:backupId",
      { config: { access: "server.backup.view" }, schema: byBackup },
      async (request, reply) => {
        const { disposition, size, body } = await backups.download(
          request.params.id,
          request.params.backupId,
        );
        // Fastify destroys the stream when the client goes away, ending the read from the node.
        return reply
          .header("content-type", "application/gzip")
          .header("content-length", String(size))
          .header("content-disposition", disposition)
          .send(body);
      },
    );
  });
}
