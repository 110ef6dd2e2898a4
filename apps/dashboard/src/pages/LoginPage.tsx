import { Alert, Button, Container, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../api';
import { useSession } from '../session';

export function LoginPage() {
  const { signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(email, password);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Could not reach the server; try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main>
      <Container size={420} py={64}>
        <Title order={1} ta="center" mb="lg">
          Sign in to your dashboard
        </Title>
        <Paper withBorder shadow="sm" p="lg" radius="md">
          <form onSubmit={(e) => void submit(e)}>
            <Stack>
              {error && (
                <Alert color="red" role="alert" title="Not signed in">
                  {error}
                </Alert>
              )}
              <TextInput
                label="Email"
                type="email"
                autoComplete="username"
                required
                withAsterisk={false}
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
              />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                required
                withAsterisk={false}
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
              <Button type="submit" loading={busy} fullWidth>
                Sign in
              </Button>
            </Stack>
          </form>
        </Paper>
      </Container>
    </main>
  );
}
