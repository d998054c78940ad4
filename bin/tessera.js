#!/usr/bin/env node
// The installed `tessera` command: loads the TypeScript sources through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
