import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileText, History, Languages, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { communicationEndpoints } from '@/contracts/communications';
import type { MessageTemplate } from '@/contracts/messages';
import { can } from '@/contracts/roles';
import { ConfirmDialog } from '@/web/components/confirm-dialog';
import { EmptyMessage } from '@/web/components/empty-message';
import { Spinner } from '@/web/components/loaders';
import { Badge } from '@/web/components/ui/badge';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/web/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '@/web/components/ui/dialog';
import { useAuth } from '@/web/hooks/use-auth';
import { toast } from '@/web/hooks/use-toast';
import { api } from '@/web/lib/api';
import { formatDateTime } from '@/web/lib/format';
import { invalidate } from '@/web/lib/mutation-effects';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';
import { CHANNEL_LABELS, groupTemplates, languageLabel, useTemplates } from './queries';
import { type EditorMode, TemplateEditor } from './template-editor';

/**
 * The Templates tab: every key with its languages and channels, built-in ones first. Built-in
 * templates may be edited, not deleted; administrators write new ones, add languages, read a
 * template's versions and restore one.
 */
export function TemplatesTab() {
  const { user } = useAuth();
  const templates = useTemplates();
  const [editor, setEditor] = useState<EditorMode | null>(null);
  const [history, setHistory] = useState<MessageTemplate | null>(null);
  const [removing, setRemoving] = useState<MessageTemplate | null>(null);
  const writes = can(user, 'admin.settings');
  const groups = groupTemplates(templates.data?.items ?? []);
  return (
    <div className="grid grid-cols-1 gap-4" data-testid="panel-templates">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-muted-foreground text-sm">
          Variables are written as <code>{'{{firstName}}'}</code>; a customer is sent their language's text,
          or English.
        </p>
        {writes ? (
          <Button size="sm" onClick={() => setEditor({ kind: 'create' })} data-testid="button-new-template">
            <Plus aria-hidden="true" /> New template
          </Button>
        ) : null}
      </div>
      {templates.isPending ? (
        <Spinner className="size-5" />
      ) : templates.isError ? (
        <p role="alert" className="text-destructive text-sm">
          Templates could not be loaded: {errorMessage(templates.error)}
        </p>
      ) : groups.length === 0 ? (
        <EmptyMessage icon={FileText}>No templates yet.</EmptyMessage>
      ) : (
        groups.map((group) => (
          <Card key={group.key} data-testid={`card-template-${group.key}`}>
            <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2 pb-2">
              <CardTitle className="flex items-center gap-2 text-base">
                {group.name}
                <span className="font-mono font-normal text-muted-foreground text-xs">{group.key}</span>
                {group.builtin ? <Badge variant="secondary">Built-in</Badge> : null}
              </CardTitle>
              {writes ? (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() =>
                    setEditor({ kind: 'add', key: group.key, name: group.name, variables: group.variables })
                  }
                  data-testid={`button-add-language-${group.key}`}
                >
                  <Languages aria-hidden="true" /> Add language
                </Button>
              ) : null}
            </CardHeader>
            <CardContent className="grid grid-cols-1 gap-3">
              {group.rows.map((row) => (
                <div
                  key={`${row.channel}:${row.language}`}
                  className="grid grid-cols-1 gap-1 border-t pt-3 first:border-t-0 first:pt-0"
                  data-testid={`row-template-${row.key}-${row.channel}-${row.language}`}
                >
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <span className="text-muted-foreground text-xs">
                      {CHANNEL_LABELS[row.channel]} · {languageLabel(row.language)} · version {row.version} ·{' '}
                      {row.version > 1 ? 'edited' : 'added'} {formatDateTime(row.updatedAt)}
                    </span>
                    <span className="flex gap-1">
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setHistory(row)}
                        data-testid={`button-history-${row.key}-${row.channel}-${row.language}`}
                      >
                        <History aria-hidden="true" /> Versions
                      </Button>
                      {writes ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setEditor({ kind: 'edit', template: row })}
                          data-testid={`button-edit-${row.key}-${row.channel}-${row.language}`}
                        >
                          <Pencil aria-hidden="true" /> Edit
                        </Button>
                      ) : null}
                      {writes && !row.builtin ? (
                        <Button
                          variant="ghost"
                          size="sm"
                          onClick={() => setRemoving(row)}
                          data-testid={`button-delete-${row.key}-${row.channel}-${row.language}`}
                        >
                          <Trash2 aria-hidden="true" /> Delete
                        </Button>
                      ) : null}
                    </span>
                  </div>
                  {row.subject ? <p className="font-medium text-sm">{row.subject}</p> : null}
                  <p className="whitespace-pre-wrap text-sm">{row.body}</p>
                </div>
              ))}
            </CardContent>
          </Card>
        ))
      )}
      {editor ? <TemplateEditor mode={editor} onClose={() => setEditor(null)} /> : null}
      {history ? (
        <VersionsDialog template={history} writes={writes} onClose={() => setHistory(null)} />
      ) : null}
      {removing ? <DeleteTemplateDialog template={removing} onClose={() => setRemoving(null)} /> : null}
    </div>
  );
}

function DeleteTemplateDialog({ template, onClose }: { template: MessageTemplate; onClose: () => void }) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: () =>
      api(communicationEndpoints.deleteTemplate, {
        query: { key: template.key, channel: template.channel, language: template.language },
      }),
    onSuccess: () => {
      void invalidate(queryClient, 'templatesChanged');
      toast({ title: 'Template deleted' });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      open
      onOpenChange={(next) => !next && onClose()}
      title={`Delete ${template.name ?? template.key} (${CHANNEL_LABELS[template.channel]}, ${languageLabel(template.language)})?`}
      description={
        <>
          Its text and versions are deleted. Messages already sent keep their text.
          {mutation.error ? (
            <span role="alert" className="mt-2 block text-destructive">
              {errorMessage(mutation.error)}
            </span>
          ) : null}
        </>
      }
      confirmLabel="Delete"
      destructive
      pending={mutation.isPending}
      onConfirm={() => mutation.mutate()}
    />
  );
}

function VersionsDialog({
  template,
  writes,
  onClose,
}: {
  template: MessageTemplate;
  writes: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const ref = { key: template.key, channel: template.channel, language: template.language };
  const versions = useQuery({
    queryKey: queryKeys.messages.versions(ref),
    queryFn: () => api(communicationEndpoints.templateVersions, { query: ref }),
  });
  const [restoring, setRestoring] = useState<number | null>(null);
  const mutation = useMutation({
    mutationFn: (version: number) =>
      api(communicationEndpoints.restoreTemplate, { body: { ...ref, version } }),
    onSuccess: (saved) => {
      void invalidate(queryClient, 'templatesChanged');
      toast({ title: `Restored as version ${saved.version}` });
      setRestoring(null);
    },
  });
  return (
    <Dialog open onOpenChange={(next) => !next && onClose()}>
      <DialogContent
        className="max-h-[85vh] max-w-2xl overflow-y-auto"
        data-testid="dialog-template-versions"
      >
        <DialogHeader>
          <DialogTitle>Versions of {template.name ?? template.key}</DialogTitle>
          <DialogDescription>
            {CHANNEL_LABELS[template.channel]}, {languageLabel(template.language)}. Restoring an earlier text
            saves it as a new version.
          </DialogDescription>
        </DialogHeader>
        {versions.isPending ? (
          <Spinner className="size-4" />
        ) : versions.isError ? (
          <p role="alert" className="text-destructive text-sm">
            {errorMessage(versions.error)}
          </p>
        ) : (
          <ol className="grid grid-cols-1 gap-3">
            {versions.data.items.map((version) => (
              <li key={version.version} className="grid grid-cols-1 gap-1 rounded-md border p-3">
                <div className="flex items-center justify-between gap-2">
                  <span className="text-muted-foreground text-xs">
                    Version {version.version} · {formatDateTime(version.createdAt)}
                    {version.current ? ' · current' : ''}
                  </span>
                  {writes && !version.current ? (
                    <Button
                      variant="outline"
                      size="sm"
                      onClick={() => setRestoring(version.version)}
                      data-testid={`button-restore-${version.version}`}
                    >
                      Restore
                    </Button>
                  ) : null}
                </div>
                {version.subject ? <p className="font-medium text-sm">{version.subject}</p> : null}
                <p className="whitespace-pre-wrap text-sm">{version.body}</p>
              </li>
            ))}
          </ol>
        )}
        {restoring !== null ? (
          <ConfirmDialog
            open
            onOpenChange={(next) => !next && setRestoring(null)}
            title={`Restore version ${restoring}?`}
            description={
              <>
                Its text becomes the current one, as a new version.
                {mutation.error ? (
                  <span role="alert" className="mt-2 block text-destructive">
                    {errorMessage(mutation.error)}
                  </span>
                ) : null}
              </>
            }
            confirmLabel="Restore"
            pending={mutation.isPending}
            onConfirm={() => mutation.mutate(restoring)}
          />
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
