#!/usr/bin/env node
// The quadkit command's launcher (the command itself is compiled to dist/).
import '../dist/main.js';
