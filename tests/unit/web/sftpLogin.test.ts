import { describe, expect, it } from "vitest";
import { sftpCommand, sftpUsername, shellWord } from "../../../src/screens/servers/sftp/sftpLogin.ts";

describe("the SFTP section's login and command", () => {
  it("names the user <email>#<serverId>", () => {
    expect(sftpUsername("ann@example.com", "a1b2c3d4")).toBe("ann@example.com#a1b2c3d4");
  });

  it("quotes the destination for the shell: # starts a comment or a glob in some shells", () => {
    expect(sftpCommand("ann@example.com#a1b2c3d4", "play.example.com", 5657)).toBe(
      "sftp -P 5657 'ann@example.com#a1b2c3d4@play.example.com'",
    );
    expect(shellWord("plain@host")).toBe("plain@host");
    expect(shellWord("o'neil@example.com#x")).toBe(`'o'\\''neil@example.com#x'`);
  });

  it("puts an IPv6 host in brackets", () => {
    expect(sftpCommand("a@b.c#x", "2001:db8::1", 2022)).toBe("sftp -P 2022 'a@b.c#x@[2001:db8::1]'");
  });
});
