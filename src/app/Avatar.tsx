import { useState } from "react";
import { avatarUrl, emailHash, identiconDataUrl } from "./avatarUrl";

export default function Avatar({ email }: { email: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!email) return <span className="avatar" />;
  const remote = avatarUrl(email);
  const src = failed === remote ? identiconDataUrl(emailHash(email)) : remote;
  return (
    <img
      className="avatar"
      src={src}
      alt=""
      width={36}
      height={36}
      data-hash={emailHash(email)}
      referrerPolicy="no-referrer"
      onError={() => setFailed(remote)}
    />
  );
}
