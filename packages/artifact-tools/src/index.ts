// The public API of @adkit/artifact-tools. Every line here is an API decision.
export { loadArtifacts, loadArtifactsTool } from './loadArtifactsTool.js';
export { partForModel } from './partForModel.js';
export type { FileSystemArtifactServiceOptions } from './fileSystemArtifactService.js';
export { FileSystemArtifactService } from './fileSystemArtifactService.js';
