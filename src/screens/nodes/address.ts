/** host:port as one types it in a browser; IPv6 hosts in brackets. */
export const formatAddress = (host: string, port: number) =>
  `${host.includes(":") ? `[${host}]` : host}:${port}`;
