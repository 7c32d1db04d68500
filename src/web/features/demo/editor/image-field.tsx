import { useMutation } from '@tanstack/react-query';
import { ImagePlus, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { DEMO_IMAGE_MAX_BYTES, DEMO_IMAGE_TYPES, demoEndpoints } from '@/contracts/demo';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { apiUploadTo } from '@/web/lib/api';
import { errorMessage } from '@/web/lib/queryClient';
import { demoImageUrl } from '../use-demo';

const MAX_MB = DEMO_IMAGE_MAX_BYTES / (1024 * 1024);

/**
 * A picture for the demo: upload (PNG, JPEG or WebP; the server checks the content), see it, or
 * remove it from the item. Uploaded images are kept, so a removed one can come back by revert.
 */
export function ImageField({
  label,
  imageId,
  onChange,
  error,
  testId,
}: {
  label: string;
  imageId: string | null;
  onChange: (imageId: string | null) => void;
  error?: string | undefined;
  testId: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const messageId = useId();
  const upload = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return apiUploadTo(demoEndpoints.uploadImage, {}, form);
    },
    onSuccess: (image) => onChange(image.id),
  });
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const message = tooLarge ?? (upload.isError ? errorMessage(upload.error) : error);

  const pick = (file: File | undefined) => {
    if (!file) return;
    upload.reset();
    // Checked here too, so a large photo is refused before it is sent over a slow line.
    if (file.size > DEMO_IMAGE_MAX_BYTES) setTooLarge(`The image is larger than ${MAX_MB} MB`);
    else {
      setTooLarge(null);
      upload.mutate(file);
    }
  };

  return (
    <div className="grid grid-cols-1 gap-1.5">
      <span className="font-medium text-sm">{label}</span>
      <div className="flex items-center gap-3">
        {imageId ? (
          <img
            src={demoImageUrl(imageId)}
            alt={`Current ${label.toLowerCase()}`}
            className="size-16 rounded-lg border bg-muted object-cover"
            data-testid={`img-${testId}`}
          />
        ) : (
          <span className="flex size-16 items-center justify-center rounded-lg border border-dashed text-muted-foreground text-xs">
            None
          </span>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="outline"
            size="sm"
            disabled={upload.isPending}
            onClick={() => input.current?.click()}
            aria-describedby={message ? messageId : undefined}
            data-testid={`button-upload-${testId}`}
          >
            {upload.isPending ? <Spinner /> : <ImagePlus aria-hidden="true" />}
            {imageId ? 'Replace' : 'Upload'}
          </Button>
          {imageId && (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => onChange(null)}
              data-testid={`button-clear-${testId}`}
            >
              <X aria-hidden="true" />
              Remove
            </Button>
          )}
        </div>
        <input
          ref={input}
          type="file"
          accept={DEMO_IMAGE_TYPES.join(',')}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(event) => {
            pick(event.target.files?.[0]);
            event.target.value = '';
          }}
          data-testid={`input-file-${testId}`}
        />
      </div>
      {message ? (
        <p id={messageId} className="font-medium text-destructive text-xs" data-testid={`error-${testId}`}>
          {message}
        </p>
      ) : (
        <p className="text-muted-foreground text-xs">PNG, JPEG or WebP, at most {MAX_MB} MB.</p>
      )}
    </div>
  );
}
