import type { Style } from './style.js';
import { stripAnsi } from './style.js';

/** Where the demo writes: lasting lines, and progress a terminal may redraw in place. */
export interface DemoOutput {
  line(text: string): void;
  progress(text: string): void;
  /** Shows (or hides) that the assistant is working, when the output can. */
  busy(on: boolean): void;
  /** Writes a prompt without a newline. */
  prompt(text: string): void;
}

/** Every line and every progress report on its own line: for pipes, files and tests. */
export function plainOutput(write: (text: string) => void): DemoOutput {
  return {
    line: (text) => write(`${text}\n`),
    progress: (text) => write(`${text}\n`),
    busy: () => {},
    prompt: (text) => write(text),
  };
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * For a terminal: progress reports and a spinner share one status line, redrawn in place and
 * cleared before the next lasting line.
 */
export function terminalOutput(stream: NodeJS.WriteStream, style: Style): DemoOutput {
  let status = '';
  let working = false;
  let frame = 0;
  let timer: NodeJS.Timeout | undefined;
  const draw = () => {
    if (!status) return;
    const width = Math.max(20, (stream.columns || 80) - 1);
    const plain = stripAnsi(status);
    const shown = plain.length > width ? style.dim(`${plain.slice(0, width - 1)}…`) : status;
    stream.write(`\r\u001b[2K${style.dim(FRAMES[frame % FRAMES.length]!)} ${shown}`);
  };
  const clear = () => {
    if (status) stream.write('\r\u001b[2K');
  };
  return {
    line(text) {
      clear();
      stream.write(`${text}\n`);
      status = working ? style.dim('working…') : '';
      draw();
    },
    progress(text) {
      clear();
      status = text.trimStart();
      draw();
    },
    busy(on) {
      working = on;
      if (on && !timer) {
        status = style.dim('working…');
        timer = setInterval(() => {
          frame++;
          draw();
        }, 80);
        timer.unref();
        draw();
      } else if (!on && timer) {
        clearInterval(timer);
        timer = undefined;
        clear();
        status = '';
      }
    },
    prompt(text) {
      clear();
      stream.write(text);
    },
  };
}
