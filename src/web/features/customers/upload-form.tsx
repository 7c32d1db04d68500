import { Upload } from 'lucide-react';
import { type FormEvent, useRef, useState } from 'react';
import { KYC_DOCUMENT_LABELS, KYC_DOCUMENT_TYPES, type KycDocumentType } from '@/contracts/customers';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Input } from '@/web/components/ui/input';
import { NativeSelect } from '@/web/components/ui/native-select';
import { errorMessage, fieldErrors } from '@/web/lib/queryClient';
import { ACCEPTED_FILES, fileProblem } from './document-rules';
import { formatFileSize } from './format';
import { useUploadDocument } from './review';

/** Choose the kind of document and its file; checked here for size and type, then by the server. */
export function UploadForm({
  customerId,
  suggestedType,
}: {
  customerId: string;
  /** The first required document still missing: the type chosen unless the person picks another. */
  suggestedType: KycDocumentType;
}) {
  // The suggestion is followed until the person picks a type; after an upload it is followed again.
  const [chosenType, setType] = useState<KycDocumentType | null>(null);
  const type = chosenType ?? suggestedType;
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<{ type?: string; file?: string }>({});
  const [alert, setAlert] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadDocument(customerId);
  // The upload stays pending until the customer's page has refreshed (documents, KYC status, the
  // next suggestion), and only then is the form reset. Type and file are locked meanwhile: a choice
  // made during the refresh (the new row can show before the rest has loaded) would be wiped by
  // that reset, and the next upload would go with the suggested type or with no file at all.
  const uploading = upload.isPending;

  const choose = (chosen: File | null) => {
    setFile(chosen);
    setAlert(null);
    setErrors((current) => ({ ...current, file: chosen ? (fileProblem(chosen) ?? undefined) : undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    const problem = fileProblem(file);
    if (problem || !file) {
      setErrors({ file: problem ?? 'Choose a file to upload' });
      input.current?.focus();
      return;
    }
    upload.mutate(
      { type, file },
      {
        onSuccess: () => {
          setType(null);
          setFile(null);
          setErrors({});
          if (input.current) input.current.value = '';
        },
        onError: (error) => {
          const fields = fieldErrors(error);
          // The refusal's own message says more than the field's ("whatever its name says").
          const next = { type: fields.type, file: fields.file ? errorMessage(error) : undefined };
          setErrors(next);
          // A refusal without a field (wrong content, too large, not allowed) goes in the alert.
          setAlert(next.type || next.file ? null : errorMessage(error));
          if (next.file) input.current?.focus();
        },
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label="Upload a KYC document"
      aria-busy={uploading}
      className="grid grid-cols-1 gap-3 rounded-lg border border-dashed bg-muted/30 p-4"
      data-testid="form-upload-document"
    >
      <FormAlert message={alert} />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
        <FormField id="document-type" label="Document type" error={errors.type}>
          {(control) => (
            <NativeSelect
              {...control}
              value={type}
              disabled={uploading}
              onChange={(event) => setType(event.target.value as KycDocumentType)}
              data-testid="select-document-type"
            >
              {KYC_DOCUMENT_TYPES.map((option) => (
                <option key={option} value={option}>
                  {KYC_DOCUMENT_LABELS[option]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        <FormField
          id="document-file"
          label="File"
          error={errors.file}
          hint={file ? `${file.name} · ${formatFileSize(file.size)}` : 'JPEG, PNG or PDF, up to 10 MB.'}
        >
          {(control) => (
            <Input
              {...control}
              ref={input}
              type="file"
              accept={ACCEPTED_FILES}
              disabled={uploading}
              onChange={(event) => choose(event.target.files?.[0] ?? null)}
              className="cursor-pointer file:mr-3 file:border-0 file:bg-transparent file:font-medium file:text-foreground file:text-sm"
              data-testid="input-document-file"
            />
          )}
        </FormField>
      </div>
      <div>
        <Button type="submit" disabled={uploading} data-testid="button-upload-document">
          {uploading ? <Spinner className="size-4" /> : <Upload aria-hidden="true" />}
          {uploading ? 'Uploading…' : 'Upload'}
        </Button>
      </div>
    </form>
  );
}
