import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { createNode } from "../../api/nodes";
import { NotPermitted } from "../../components/NotPermitted";
import { ScreenIcon } from "../../components/screenIcons";
import { toastSuccess } from "../../components/toastStore";
import { hasScope } from "../../state/scopes";
import { NodeForm } from "./NodeForm";
import { emptyNodeForm, formToBody } from "./nodeForm";
import { FORM_EXEMPT, useNodeForm } from "./useNodeForm";
import "./nodes.css";

export default function NodeCreate() {
  const form = useNodeForm(emptyNodeForm);
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();

  if (!hasScope("nodes.create")) return <NotPermitted />;

  const create = async () => {
    if (busy || !form.ready()) return;
    setBusy(true);
    try {
      const body = formToBody(form.values);
      const id = await createNode(body, { exempt: FORM_EXEMPT });
      toastSuccess(t`Node ${body.name} created`);
      navigate(id >= 0 ? `/nodes/view/${id}` : "/nodes");
    } catch (err) {
      form.refused(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel node-create">
      <Link href="/nodes" className="back-link">
        <ScreenIcon name="back" size={18} className="flip-rtl" />
        <Trans>Nodes</Trans>
      </Link>
      <h1 className="panel-title">
        <Trans>New node</Trans>
      </h1>
      <p className="muted small">
        <Trans>
          A node is a host machine that runs game servers. After creating it, its page shows how to start the
          daemon there.
        </Trans>
      </p>
      <NodeForm
        form={form}
        onSubmit={create}
        actions={
          <button type="submit" className="btn" disabled={busy}>
            <ScreenIcon name="plus" size={18} />
            <Trans>Create node</Trans>
          </button>
        }
      />
    </section>
  );
}
