#!/usr/bin/env node
import { runDemo } from './runDemo.js';

await runDemo({ env: process.env, write: (line) => console.log(line) });
