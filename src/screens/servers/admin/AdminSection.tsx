import { useState } from "react";
import { isAdmin } from "../../../state/scopes";
import type { SectionProps } from "../sectionProps";
import { DefinitionEditor } from "./DefinitionEditor";
import { LimitsEditor } from "./LimitsEditor";
import { Maintenance } from "./Maintenance";
import { MoveToNode } from "./MoveToNode";

/** Administration of one server: its limits, its definition, a move to another node, reload, deletion. */
export default function AdminSection({ server, can, live, onChanged }: SectionProps) {
  // Bumped when the limits are saved, so the definition editor reads the definition again.
  const [definitionVersion, setDefinitionVersion] = useState(0);

  return (
    <div className="admin-section">
      {isAdmin.value && <LimitsEditor id={server.id} onSaved={() => setDefinitionVersion((v) => v + 1)} />}
      {can("server.definition.view") && (
        <DefinitionEditor
          key={definitionVersion}
          id={server.id}
          canEdit={can("server.definition.edit")}
          onSaved={(d) => onChanged({ type: d.type ?? server.type, icon: d.icon })}
        />
      )}
      {isAdmin.value && (
        <MoveToNode
          key={server.node.id}
          server={server}
          live={live}
          onMoved={(node) => onChanged({ node: { ...server.node, id: node.id, name: node.name } })}
        />
      )}
      {(can("server.reload") || can("server.delete")) && <Maintenance server={server} can={can} />}
    </div>
  );
}
