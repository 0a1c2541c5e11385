// Cloudflare Workers (wrangler dev, local workerd): the package through its
// `workerd` build; GET / answers with the check's result.
import * as api from 'mcp-errors';
import classify from './vectors/classify.json';
import render from './vectors/render.json';
import parse from './vectors/parse.json';
import { check } from './check.mjs';

export default {
  async fetch() {
    await api.ready();
    return Response.json(check(api, classify.cases, render.cases, parse.cases));
  },
};
