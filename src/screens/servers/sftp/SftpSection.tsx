import type { SectionProps } from "../sectionProps";

/** SFTP details (spec §2.3). */
export default function SftpSection(_props: SectionProps) {
  return null;
}
