import { Alert, List } from '@mantine/core';
import type { ApiError } from '../api';

/** What a dialog's form could not save: the answer's message and each field it named. */
export type FormProblem = { text: string; fields: ApiError['fields'] };

export function FormError({ error }: { error: FormProblem | null }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert">
      {error.text}
      {error.fields.length > 0 && (
        <List size="sm" mt="xs">
          {error.fields.map((f) => (
            <List.Item key={f.field}>
              {f.field}: {f.message}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
