import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  CheckIcon,
  Input,
  Label,
  SpinnerIcon,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  toast,
  XIcon,
} from '@logovote/ui';
import { api } from '@logovote/web-client';
import type { ModerationResult } from '@logovote/contracts';
import { ModerationChecks } from '@logovote/contracts/moderation-checks';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useState, type ChangeEvent } from 'react';

function formatKilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(2)} KB`;
}

function RawResponse({ value }: { value: unknown }) {
  if (value === undefined || value === null) return <p className="text-sm text-muted-foreground">No raw response data available</p>;
  return (
    <pre tabIndex={0} className="max-h-80 overflow-auto rounded-md bg-muted p-4 text-xs" aria-label="Raw response">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** Each check's own verdict, when the image got as far as moderation (a type or size refusal has none). */
function CheckList({ rawResponse }: { rawResponse: unknown }) {
  const parsed = ModerationChecks.safeParse(rawResponse);
  if (!parsed.success) return null;
  return (
    <>
      <dt className="font-medium">checks</dt>
      <dd>
        <ul className="flex flex-col gap-1" aria-label="Moderation checks">
          {parsed.data.checks.map((verdict) => (
            <li key={verdict.check} data-check={verdict.check} data-valid={String(verdict.isValid)} className="flex items-start gap-2">
              {verdict.isValid ? (
                <CheckIcon className="mt-0.5 size-4 shrink-0 text-green-700" />
              ) : (
                <XIcon className="mt-0.5 size-4 shrink-0 text-destructive" />
              )}
              <span className="break-words">
                <span className="sr-only">{verdict.isValid ? 'Passed: ' : 'Refused: '}</span>
                <span className="font-medium capitalize">{verdict.check}</span>: {verdict.reason}
              </span>
            </li>
          ))}
        </ul>
      </dd>
    </>
  );
}

function ResultCard({ result }: { result: ModerationResult }) {
  const title = result.isValid ? 'Image Passed Validation' : 'Image Failed Validation';
  return (
    <Card
      data-testid="moderation-result"
      data-valid={String(result.isValid)}
      className={result.isValid ? 'border-green-600' : 'border-destructive'}
    >
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-xl">
          {result.isValid ? <CheckIcon className="size-5 text-green-700" /> : <XIcon className="size-5 text-destructive" />}
          <h2>{title}</h2>
        </CardTitle>
        <CardDescription>{result.reason}</CardDescription>
      </CardHeader>
      <CardContent>
        <Tabs defaultValue="summary">
          <TabsList>
            <TabsTrigger value="summary">Summary</TabsTrigger>
            <TabsTrigger value="raw">Raw Response</TabsTrigger>
          </TabsList>
          <TabsContent value="summary">
            <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-2 text-sm">
              <dt className="font-medium">isValid</dt>
              <dd>{String(result.isValid)}</dd>
              <dt className="font-medium">reason</dt>
              <dd className="break-words">{result.reason}</dd>
              <CheckList rawResponse={result.rawResponse} />
            </dl>
          </TabsContent>
          <TabsContent value="raw">
            <RawResponse value={result.rawResponse} />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}

/** Image moderation test tool (spec section 2, /test/moderate): runs an image through the upload checks. */
export default function ModerationTestPage() {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);

  useEffect(() => {
    if (!file) return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const moderation = useMutation({
    mutationFn: (image: File) => api.moderateImage(image),
    onError: () => toast({ title: 'Error', description: 'Failed to validate image', variant: 'destructive' }),
  });

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    setFile(event.target.files?.[0] ?? null);
    setPreview(null);
    moderation.reset();
  };

  const test = () => {
    if (!file) {
      toast({ title: 'No file selected', description: 'Please select an image to test moderation' });
      return;
    }
    moderation.mutate(file);
  };

  return (
    <section data-page="test-moderate" className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <Card>
        <CardHeader>
          <CardTitle>
            <h1>Image Moderation Test</h1>
          </CardTitle>
          <CardDescription>Upload an image to check it against the content moderation rules.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor={inputId}>Image</Label>
            <Input id={inputId} type="file" accept="image/*" onChange={choose} className="h-auto cursor-pointer py-2" />
          </div>
          {file && (
            <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
              {preview && (
                <img src={preview} alt="Preview of the selected image" className="size-32 rounded-md border border-border object-contain" />
              )}
              <p className="text-sm" data-testid="selected-file">
                <span className="font-medium break-all">{file.name}</span>{' '}
                <span className="text-muted-foreground">({formatKilobytes(file.size)})</span>
              </p>
            </div>
          )}
          <div>
            <Button onClick={test} disabled={moderation.isPending}>
              {moderation.isPending && <SpinnerIcon />}
              {moderation.isPending ? 'Testing...' : 'Test Moderation'}
            </Button>
          </div>
        </CardContent>
      </Card>
      {moderation.data && <ResultCard result={moderation.data} />}
    </section>
  );
}
