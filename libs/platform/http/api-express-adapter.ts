import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';
import { ApiPipelineInterceptor, getStateOf, Reply } from './api-pipeline.interceptor';
import { createApiServer } from './api-request';

/**
 * Express, as Nest's adapter, with the API's reply of a GET (ETag, If-None-Match, expand[], one
 * JSON text): the reply is where a GET's pipeline ends, so GET routes need no interceptor and
 * none of the rxjs chains Nest wraps one in. Every other reply is the adapter's own.
 */
export class ApiExpressAdapter extends ExpressAdapter {
  private pipeline: ApiPipelineInterceptor | undefined;
  private readonly send: Reply = (res, body, statusCode) => super.reply(res, body, statusCode);

  /** Set once the app's providers exist, before it serves requests. */
  usePipeline(pipeline: ApiPipelineInterceptor): void {
    this.pipeline = pipeline;
  }

  /** The listener's requests and responses are ApiRequest and ApiResponse (api-request.ts). */
  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.return503OnClosing || options?.forceCloseConnections) {
      super.initHttpServer(options);
      return;
    }
    this.httpServer = createApiServer(this.getInstance());
  }

  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    const state = this.pipeline && getStateOf(response);
    if (!state) return super.reply(response, body, statusCode);
    return this.pipeline!.replyGet(state, response, body, statusCode, this.send);
  }
}
