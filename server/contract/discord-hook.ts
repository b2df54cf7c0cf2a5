/** A Discord webhook address: https on its hosts, /api/webhooks/{id}/{token} (browser and panel check the same). */
export const isDiscordHook = (url: string): boolean => {
  const { hostname, pathname, protocol } = new URL(url);
  const host = hostname.toLowerCase();
  return (
    protocol === "https:" &&
    (host === "discord.com" || host === "discordapp.com" || host.endsWith(".discord.com")) &&
    /^\/api\/webhooks\/\d+\/[\w-]+\/?$/.test(pathname)
  );
};
