import { avatarUrl, emailHash } from "./avatarUrl";

export default function Avatar({ email }: { email: string }) {
  if (!email) return <span className="avatar" />;
  return (
    <img
      className="avatar"
      src={avatarUrl(email)}
      alt=""
      width={36}
      height={36}
      data-hash={emailHash(email)}
    />
  );
}
