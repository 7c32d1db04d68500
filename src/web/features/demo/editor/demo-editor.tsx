import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Eye, RotateCw, Save, Send, Undo2 } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { type DemoDraft, demoEndpoints } from '@/contracts/demo';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { FormAlert } from '@/web/components/form-alert';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/web/components/ui/card';
import { Skeleton } from '@/web/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/web/components/ui/tabs';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { queryKeys } from '@/web/lib/query-keys';
import { apiError, errorMessage } from '@/web/lib/queryClient';
import { useCurrency } from '../use-demo';
import { DevicesEditor } from './devices-editor';
import { type EditorForm, type FieldErrors, fromForm, serverFieldErrors, toForm } from './form-model';
import { PlansEditor } from './plans-editor';
import { TextsEditor } from './texts-editor';
import { useUnsavedChangesWarning } from './use-unsaved-warning';
import { VersionsList } from './versions-list';

/** What the editor is working on: the draft as loaded, and the form people change. */
interface Session {
  draft: DemoDraft;
  form: EditorForm;
  /** The form as loaded, to tell whether anything changed. */
  baseline: string;
}

type Pending = { kind: 'publish' } | { kind: 'revert'; id: string; version: number } | null;

/**
 * /admin/demo-editor: the draft's devices, plans, texts and images; save (with the draft's
 * revision: someone else's save in between is a 409, shown with a reload), preview the saved draft
 * on /demo, publish with a confirmation, and revert to an earlier version (it becomes the draft).
 */
export function DemoEditor() {
  const client = useQueryClient();
  const currency = useCurrency();
  const draftQuery = useQuery({ queryKey: queryKeys.demo.draft(), queryFn: () => api(demoEndpoints.draft) });
  const versions = useQuery({
    queryKey: queryKeys.demo.versions(),
    queryFn: () => api(demoEndpoints.versions),
  });
  const [session, setSession] = useState<Session | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const [serverErrors, setServerErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState<Pending>(null);
  const [stale, setStale] = useState(false);

  const start = useCallback((draft: DemoDraft, currencyCode: string) => {
    const form = toForm(draft.content, currencyCode);
    setSession({ draft, form, baseline: JSON.stringify(form) });
    setShowErrors(false);
    setServerErrors({});
    setStale(false);
  }, []);

  useEffect(() => {
    if (!session && draftQuery.data && currency.data) start(draftQuery.data, currency.data);
  }, [session, draftQuery.data, currency.data, start]);

  const dirty = !!session && JSON.stringify(session.form) !== session.baseline;
  useUnsavedChangesWarning(dirty);

  const checked = useMemo(
    () => (session && currency.data ? fromForm(session.form, currency.data) : null),
    [session, currency.data],
  );
  const errors: FieldErrors = showErrors ? { ...(checked?.errors ?? {}), ...serverErrors } : {};

  const afterChange = async (draft: DemoDraft | null) => {
    await client.invalidateQueries({ queryKey: queryKeys.demo.all() });
    if (draft && currency.data) start(draft, currency.data);
    else setSession(null); // the effect starts again from the refetched draft
  };

  const onFailure = (error: unknown) => {
    const problem = apiError(error);
    if (problem?.status === 409) setStale(true);
    else if (problem && Object.keys(problem.fields).length) {
      setServerErrors(serverFieldErrors(problem.fields));
      setShowErrors(true);
    }
  };

  const save = useMutation({
    mutationFn: () => {
      if (!session || !checked?.content) throw new Error('Correct the highlighted fields first');
      return api(demoEndpoints.saveDraft, {
        body: { expectedRevision: session.draft.revision, content: checked.content },
      });
    },
    onSuccess: async (draft) => {
      await afterChange(draft);
      toast({ title: 'Draft saved', description: 'Preview it, then publish it when it is ready.' });
    },
    onError: onFailure,
  });

  const publish = useMutation({
    mutationFn: () => {
      if (!session?.draft.revision) throw new Error('Save the draft first');
      return api(demoEndpoints.publish, { body: { expectedRevision: session.draft.revision } });
    },
    onSuccess: async (version) => {
      setPending(null);
      await afterChange(null);
      toast({ title: `Version ${version.version} is live`, description: 'Visitors of /demo now see it.' });
    },
    onError: (error) => {
      setPending(null);
      onFailure(error);
    },
  });

  const revert = useMutation({
    mutationFn: (target: { id: string; version: number }) =>
      api(demoEndpoints.revert, {
        params: { id: target.id },
        body: { expectedRevision: session?.draft.revision ?? null },
      }),
    onSuccess: async (draft, version) => {
      setPending(null);
      await afterChange(draft);
      toast({
        title: `Version ${version} is now the draft`,
        description: 'Publish it to make it live again.',
      });
    },
    onError: (error) => {
      setPending(null);
      onFailure(error);
    },
  });

  if (!session || !currency.data) {
    const failure = draftQuery.error ?? currency.error;
    if (failure) {
      return (
        <Card>
          <CardContent className="flex flex-col items-start gap-4 p-6">
            <p role="alert" className="text-sm">
              The demo's draft could not load: {errorMessage(failure)}
            </p>
            <Button variant="outline" onClick={() => void draftQuery.refetch()}>
              <RotateCw aria-hidden="true" />
              Try again
            </Button>
          </CardContent>
        </Card>
      );
    }
    return (
      <div role="status" className="grid gap-4">
        <span className="sr-only">Loading the demo's draft…</span>
        <Skeleton className="h-28 w-full rounded-xl" />
        <Skeleton className="h-96 w-full rounded-xl" />
      </div>
    );
  }

  const { draft, form } = session;
  const setForm = (change: Partial<EditorForm>) => {
    setServerErrors({});
    setSession({ ...session, form: { ...form, ...change } });
  };
  const busy = save.isPending || publish.isPending || revert.isPending;
  const trySave = () => {
    setShowErrors(true);
    if (checked?.content) save.mutate();
  };
  const failure = [save, publish, revert].find((mutation) => mutation.isError)?.error;
  const count = (prefix: string) => Object.keys(errors).filter((key) => key.startsWith(prefix)).length;
  const tab = (label: string, prefix: string) => {
    const n = count(prefix);
    return n ? `${label} (${n} to fix)` : label;
  };

  return (
    <div className="grid grid-cols-1 gap-4">
      <Card>
        <CardHeader className="gap-1">
          <CardTitle className="flex flex-wrap items-center gap-2 text-base">
            {draft.exists ? `Draft (version ${draft.version})` : 'No draft yet'}
            {dirty && (
              <Badge variant="warning" data-testid="badge-unsaved">
                Unsaved changes
              </Badge>
            )}
          </CardTitle>
          <CardDescription data-testid="text-draft-status">
            {draft.exists
              ? `Saved ${formatDateTime(draft.updatedAt)}${draft.createdBy ? `, started by ${draft.createdBy}` : ''}. `
              : `You are editing a copy of ${draft.publishedVersion ? `version ${draft.publishedVersion}, which is live` : 'the built-in demo'}; saving creates the draft. `}
            Visitors see {draft.publishedVersion ? `version ${draft.publishedVersion}` : 'the built-in demo'}{' '}
            until you publish.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <div className="flex flex-wrap gap-2">
            <Button onClick={trySave} disabled={busy || !dirty} data-testid="button-save-draft">
              {save.isPending ? <Spinner /> : <Save aria-hidden="true" />}
              Save draft
            </Button>
            <Button
              variant="outline"
              disabled={busy || !dirty}
              onClick={() => start(draft, currency.data)}
              data-testid="button-discard"
            >
              <Undo2 aria-hidden="true" />
              Discard changes
            </Button>
            {draft.exists ? (
              <Button asChild variant="outline">
                <a href="/demo?preview=draft" target="_blank" rel="noopener" data-testid="link-preview">
                  <Eye aria-hidden="true" />
                  Preview
                </a>
              </Button>
            ) : (
              <Button variant="outline" disabled data-testid="link-preview">
                <Eye aria-hidden="true" />
                Preview
              </Button>
            )}
            <Button
              variant="secondary"
              disabled={busy || dirty || !draft.exists}
              onClick={() => setPending({ kind: 'publish' })}
              data-testid="button-publish"
            >
              <Send aria-hidden="true" />
              Publish
            </Button>
          </div>
          {dirty && draft.exists && (
            <p className="text-muted-foreground text-xs">Save to preview or publish your latest changes.</p>
          )}
          {stale ? (
            <div
              role="alert"
              className="flex flex-wrap items-center gap-3 rounded-lg border border-destructive/50 bg-destructive/10 p-3 text-sm"
              data-testid="alert-stale"
            >
              Someone else changed the draft since you opened it; your changes are not saved.
              <Button
                size="sm"
                variant="outline"
                onClick={async () => {
                  const latest = await draftQuery.refetch();
                  await client.invalidateQueries({ queryKey: queryKeys.demo.versions() });
                  if (latest.data) start(latest.data, currency.data);
                }}
                data-testid="button-reload-draft"
              >
                <RotateCw aria-hidden="true" />
                Load their version
              </Button>
            </div>
          ) : (
            <FormAlert
              message={
                showErrors && checked && !checked.content
                  ? 'Correct the highlighted fields, then save again.'
                  : failure && apiError(failure)?.status !== 409
                    ? errorMessage(failure)
                    : null
              }
            />
          )}
        </CardContent>
      </Card>

      <Tabs defaultValue="devices" className="grid grid-cols-1 gap-4">
        <TabsList className="w-full justify-start overflow-x-auto">
          <TabsTrigger value="devices" data-testid="tab-devices">
            {tab('Devices', 'devices')}
          </TabsTrigger>
          <TabsTrigger value="plans" data-testid="tab-plans">
            {tab('Plans', 'plans')}
          </TabsTrigger>
          <TabsTrigger value="texts" data-testid="tab-texts">
            {tab('Texts', 'texts')}
          </TabsTrigger>
          <TabsTrigger value="history" data-testid="tab-history">
            History
          </TabsTrigger>
        </TabsList>
        <TabsContent value="devices">
          <DevicesEditor
            devices={form.devices}
            currency={currency.data}
            errors={errors}
            onChange={(devices) => setForm({ devices })}
          />
        </TabsContent>
        <TabsContent value="plans">
          <PlansEditor plans={form.plans} errors={errors} onChange={(plans) => setForm({ plans })} />
        </TabsContent>
        <TabsContent value="texts">
          <TextsEditor
            texts={form.texts}
            heroImageId={form.heroImageId}
            errors={errors}
            onChange={(texts) => setForm({ texts })}
            onHeroChange={(heroImageId) => setForm({ heroImageId })}
          />
        </TabsContent>
        <TabsContent value="history">
          {versions.data ? (
            <VersionsList
              versions={versions.data.items}
              busy={busy}
              onRevert={(id, version) => setPending({ kind: 'revert', id, version })}
            />
          ) : versions.isError ? (
            <p role="alert" className="text-sm">
              The versions could not load: {errorMessage(versions.error)}
            </p>
          ) : (
            <Skeleton className="h-32 w-full" />
          )}
        </TabsContent>
      </Tabs>

      <ConfirmDialog
        open={pending?.kind === 'publish'}
        onOpenChange={(open) => !open && setPending(null)}
        title={`Publish version ${draft.version ?? ''}?`}
        description="Everyone who opens /demo sees this content at once. The version live now is archived; you can revert to it later."
        confirmLabel="Publish"
        pending={publish.isPending}
        onConfirm={() => publish.mutate()}
      />
      <ConfirmDialog
        open={pending?.kind === 'revert'}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending?.kind === 'revert' ? `Revert to version ${pending.version}?` : 'Revert?'}
        description={
          <>
            Its content replaces the draft{dirty ? ', and your unsaved changes are lost' : ''}. Nothing
            changes for visitors until you publish.
          </>
        }
        confirmLabel="Revert"
        destructive={dirty}
        pending={revert.isPending}
        onConfirm={() => pending?.kind === 'revert' && revert.mutate(pending)}
      />
    </div>
  );
}
