import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { type Node, updateNode } from "../../api/nodes";
import { Panel } from "../../components/Panel";
import { ScreenIcon } from "../../components/screenIcons";
import { toastSuccess } from "../../components/toastStore";
import { offlineReason } from "../../offline/NeedsNetwork";
import { NodeForm } from "./NodeForm";
import { formFromNode, formToBody } from "./nodeForm";
import { FORM_EXEMPT, useNodeForm } from "./useNodeForm";

/** The node's settings; read-only for the local node (its address follows the panel URL) and without nodes.edit. */
export function NodeEdit({
  node,
  canEdit,
  offline = false,
  onSaved,
}: {
  node: Node;
  canEdit: boolean;
  /** The panel cannot be reached: shown read-only, the save button saying why. */
  offline?: boolean;
  onSaved: (saved: Node) => void;
}) {
  const form = useNodeForm(() => formFromNode(node));
  const [busy, setBusy] = useState(false);
  const editable = !node.isLocal && canEdit;
  const readOnly = !editable || offline;

  const save = async () => {
    if (busy || !form.ready()) return;
    setBusy(true);
    try {
      const body = formToBody(form.values);
      await updateNode(node.id, body, { exempt: FORM_EXEMPT });
      form.reset(form.values);
      toastSuccess(t`Node ${body.name} saved`);
      onSaved({ ...node, ...body });
    } catch (err) {
      form.refused(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title={<Trans>Settings</Trans>} className="node-edit">
      {node.isLocal && (
        <p className="note" data-testid="local-node-note">
          <Trans>
            This is the panel's own node. Its address follows the panel URL in Settings, so it cannot be
            edited here.
          </Trans>
        </p>
      )}
      <NodeForm
        form={form}
        onSubmit={save}
        readOnly={readOnly}
        actions={
          editable ? (
            <button
              type="submit"
              className="btn"
              disabled={busy || !form.dirty || offline}
              title={offline ? offlineReason() : undefined}
            >
              <ScreenIcon name="save" size={18} />
              <Trans>Save</Trans>
            </button>
          ) : undefined
        }
      />
    </Panel>
  );
}
