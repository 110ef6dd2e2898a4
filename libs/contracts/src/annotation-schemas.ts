import { Nullable, Str, Type } from './schema-kit';

/** The schemas of metadata and description (docs/api.md); their values come from annotationsOf. */
export const MetadataSchema = Type.Record(Type.String(), Type.String(), {
  description: 'Your key-value pairs; {} when none were set',
});
export const AnnotationFields = {
  metadata: MetadataSchema,
  description: Nullable(Str('Your free text; null when none was set')),
};
