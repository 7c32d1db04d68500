import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LogIn } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { investorEndpoints } from '@/contracts/investor';
import { FormAlert } from '@/web/components/form-alert';
import { FormField } from '@/web/components/form-field';
import { Spinner } from '@/web/components/loaders';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/web/components/ui/card';
import { Input } from '@/web/components/ui/input';
import { api } from '@/web/lib/api';
import { queryKeys } from '@/web/lib/query-keys';
import { errorMessage } from '@/web/lib/queryClient';

/** Sign-in with an investor code (issued in /admin/investor-codes). */
export function InvestorSignIn() {
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const signIn = useMutation({
    mutationFn: () => api(investorEndpoints.login, { body: { code } }),
    // The figures were removed at sign-out (or never read): they load for this code's scope.
    onSuccess: (me) => queryClient.setQueryData(queryKeys.investor.me(), me),
    onError: (error) => setAlert(errorMessage(error)),
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    signIn.mutate();
  };
  return (
    <Card className="mx-auto w-full max-w-md">
      <CardHeader>
        <h1 className="font-semibold text-xl leading-tight">Investor portal</h1>
        <CardDescription>
          Sign in with the investor code you were given. You will see portfolio figures only — never a
          customer’s details.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={onSubmit} noValidate className="grid grid-cols-1 gap-4" aria-label="Investor sign-in">
          <FormAlert message={alert} />
          <FormField id="investor-code" label="Investor code">
            {(control) => (
              <Input
                {...control}
                value={code}
                onChange={(e) => setCode(e.target.value)}
                autoComplete="one-time-code"
                autoCapitalize="characters"
                spellCheck={false}
                placeholder="XXXX-XXXX-XXXX-XXXX-XXXX-XXXX"
                className="font-mono"
                required
                data-testid="input-investor-code"
              />
            )}
          </FormField>
          <Button
            type="submit"
            disabled={signIn.isPending || !code.trim()}
            data-testid="button-investor-sign-in"
          >
            {signIn.isPending ? <Spinner className="size-4" /> : <LogIn aria-hidden="true" />}
            {signIn.isPending ? 'Signing in…' : 'Sign in'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
