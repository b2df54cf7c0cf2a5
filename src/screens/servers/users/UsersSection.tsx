import type { SectionProps } from "../sectionProps";

/** Users of this server (spec §2.3). */
export default function UsersSection(_props: SectionProps) {
  return null;
}
