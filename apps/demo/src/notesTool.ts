import { functionTool } from '@adkit/function-tool';
import Type from 'typebox';

/** The notes artifact; the `user:` prefix shares it across all of the user's sessions. */
export const NOTES_ARTIFACT = 'user:notes.md';

/** Adds a line to the user's notes, a versioned artifact the model reads back with `load_artifacts`. */
export const saveNote = functionTool({
  name: 'save_note',
  description: `Adds a line to the user's notes (the artifact "${NOTES_ARTIFACT}", kept across sessions).`,
  parameters: Type.Object({ text: Type.String({ minLength: 1, maxLength: 2000 }) }),
  execute: async ({ text }, ctx) => {
    const previous = await ctx.loadArtifact(NOTES_ARTIFACT);
    const notes = `${previous?.text ?? '# Notes\n'}- ${text.replace(/\s+/g, ' ').trim()}\n`;
    const version = await ctx.saveArtifact(NOTES_ARTIFACT, { text: notes });
    return { artifact: NOTES_ARTIFACT, version };
  },
});
