// class-transformer ships this module's types under types/, not beside the CommonJS file.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
