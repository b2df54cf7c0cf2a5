import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPublicAddress } from "../../../server/net/public-address.ts";
import {
  type AlertMessage,
  alertMail,
  sendWebhook,
  signature,
  webhookBody,
} from "../../../server/panel/notifications/senders.ts";

const message: AlertMessage = {
  event: "server.crashed",
  at: "2026-01-01T00:00:00.000Z",
  title: "Lobby crashed",
  message: "The server Lobby stopped without being asked to.",
  lang: "en_US",
  url: "https://panel.example.com/servers/view/0a1b2c3d",
  server: { id: "0a1b2c3d", name: "Lobby" },
};

describe("alert senders", () => {
  it("gives Discord and Slack hooks their own shape, and anything else the alert as it is", () => {
    expect(webhookBody("https://discord.com/api/webhooks/1/abc", message)).toEqual({
      embeds: [
        {
          title: "Lobby crashed",
          description: "The server Lobby stopped without being asked to.",
          url: "https://panel.example.com/servers/view/0a1b2c3d",
          timestamp: "2026-01-01T00:00:00.000Z",
          color: 0xd32f2f,
        },
      ],
      allowed_mentions: { parse: [] },
    });
    expect(webhookBody("https://hooks.slack.com/services/T/B/x", message)).toEqual({
      text: "*Lobby crashed*\nThe server Lobby stopped without being asked to.\n<https://panel.example.com/servers/view/0a1b2c3d>",
    });
    // A server's name pings no one: Discord may mention nobody, Slack's text is escaped.
    const pinging = { ...message, title: "@everyone <!channel> crashed" };
    expect(webhookBody("https://hooks.slack.com/services/T/B/x", pinging)).toMatchObject({
      text: expect.stringContaining("@everyone &lt;!channel&gt; crashed"),
    });
    // Only Discord's webhook path is Discord's shape; a look-alike host is not.
    expect(webhookBody("https://discord.com/other", message)).toBe(message);
    expect(webhookBody("https://discord.com.evil.example/api/webhooks/1/abc", message)).toBe(message);
  });

  it("signs the exact body: sha256= and the hex HMAC-SHA256 under the channel's secret", () => {
    const body = Buffer.from('{"a":1}');
    expect(signature("k", body)).toBe(
      `sha256=${crypto.createHmac("sha256", "k").update(body).digest("hex")}`,
    );
  });

  it("writes the e-mail with the link and no markup from the server's name", () => {
    const mail = alertMail("me@example.com", "Acme", {
      ...message,
      title: "<b>x</b> crashed",
      message: "<b>x</b>",
    });
    expect(mail.subject).toBe("Acme: <b>x</b> crashed");
    expect(mail.html).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(mail.text).toContain(message.url);
  });

  describe("delivery", () => {
    const statuses: number[] = [];
    let hits = 0;
    let url: string;
    const server = http.createServer((req, res) => {
      hits++;
      req.resume();
      req.on("end", () => {
        res.statusCode = statuses.shift() ?? 200;
        res.end();
      });
    });
    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("retries what a receiver may take later, and gives up on a refusal", async () => {
      const anywhere = () => true;
      statuses.push(503, 429, 404);
      expect(await sendWebhook(url, "s", message, anywhere)).toBe("retry");
      expect(await sendWebhook(url, "s", message, anywhere)).toBe("retry");
      expect(await sendWebhook(url, "s", message, anywhere)).toBe("failed");
      expect(await sendWebhook(url, "s", message, anywhere)).toBe("sent");
    });

    it("never connects to a loopback receiver for a non-administrator's hook", async () => {
      const before = hits;
      expect(await sendWebhook(url, "s", message, isPublicAddress)).toBe("retry");
      expect(hits).toBe(before);
    });
  });
});
