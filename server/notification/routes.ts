import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../contract/common.ts';
import {
  NotificationList,
  NotificationListQuery,
  NotificationReadBody,
  RemoveExpoTokenQuery,
  SetExpoTokenQuery,
  WebPushDeleteQuery,
  WebPushKey,
  WebPushSubscriptionBody,
} from '../../contract/notification.ts';
import { access } from '../access.ts';
import { requestLanguage } from '../i18n/index.ts';
import { listNotifications, readNotifications, removeExpoToken, setExpoToken, subscribeWebpush, unsubscribeWebpush } from './rules.ts';

/**
 * The caller's notifications, Expo push tokens and Web Push subscriptions (API.md "Mobile user").
 * All about the caller themselves: another user's ids are passed over, never named.
 */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.db, services: app.services };
  const self = access({ visitor: 401, owner: 200, other: 200, note: 'About the caller themselves: nothing of anybody else is named' });
  const selfNoContent = access({ visitor: 401, owner: 204, other: 204, note: 'Changes only the caller\'s own; another user\'s ids are passed over' });
  const tags = ['Mobile user'];

  app.get(
    '/mobileuser/notifications',
    {
      preHandler: app.authenticate,
      schema: {
        ...self,
        operationId: 'listNotifications',
        tags,
        summary: "The caller's notifications, newest first",
        description:
          'Title and body in the request\'s language (Accept-Language; Swedish by default). `X-Unread-Count` gives the unread ones in all. ' +
          'When more follow, the answer has a `Link: </api/mobileuser/notifications?limit=…&cursor=…>; rel="next"` header.',
        querystring: NotificationListQuery,
        response: { 200: NotificationList, ...errorResponses(400, 401) },
      },
    },
    async (req, reply) => {
      const page = await listNotifications(deps, req.userId, req.query, requestLanguage(req));
      if (page.nextCursor) reply.header('link', `</api/mobileuser/notifications?limit=${page.limit}&cursor=${page.nextCursor}>; rel="next"`);
      reply.header('x-unread-count', String(page.unread));
      return page.items;
    },
  );

  app.post(
    '/mobileuser/notifications/read',
    {
      preHandler: app.authenticate,
      // No body at all means the same as {}: all of them.
      preValidation: async (req) => {
        if (req.body === undefined || req.body === null) req.body = {};
      },
      schema: {
        ...selfNoContent,
        operationId: 'markNotificationsRead',
        tags,
        summary: 'Mark notifications read (those named, or all)',
        description: 'Marks the notifications named by `ids` read, or all of the caller\'s when `ids` is left out. Ids of other users\' notifications are passed over. 204.',
        body: NotificationReadBody,
        response: { 204: Type.Null(), ...errorResponses(400, 401) },
      },
    },
    async (req, reply) => {
      await readNotifications(deps, req.userId, req.body.ids);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/mobileuser/setExpoToken',
    {
      preHandler: app.authenticate,
      schema: {
        ...selfNoContent,
        operationId: 'setExpoToken',
        tags,
        summary: "Keep this device's Expo push token for the caller",
        description:
          'A token registered by someone else before moves to the caller (the last to register it). Its pushes are written in the request\'s language ' +
          '(Accept-Language, Swedish by default); registering again changes it. 400 EXPO_TOKEN_INVALID, DEVICE_ID_INVALID.',
        querystring: SetExpoTokenQuery,
        response: { 204: Type.Null(), ...errorResponses(400, 401) },
      },
    },
    async (req, reply) => {
      await setExpoToken(deps, req.userId, req.query.deviceId, req.query.token, requestLanguage(req));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/mobileuser/removeExpoToken',
    {
      preHandler: app.authenticate,
      schema: {
        ...selfNoContent,
        operationId: 'removeExpoToken',
        tags,
        summary: "Forget this device's Expo push token",
        description: 'Stops pushes through Expo to this device (`deviceId`) for the caller. Removing one that is not registered is not an error. 204.',
        querystring: RemoveExpoTokenQuery,
        response: { 204: Type.Null(), ...errorResponses(400, 401) },
      },
    },
    async (req, reply) => {
      await removeExpoToken(deps, req.userId, req.query.deviceId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/mobileuser/webpush',
    {
      preHandler: app.authenticate,
      schema: {
        ...self,
        operationId: 'getWebPushKey',
        tags,
        summary: 'The VAPID public key a browser subscribes with',
        description: 'The VAPID public key (base64url) to pass as `applicationServerKey` to PushManager.subscribe, before POST /mobileuser/webpush.',
        response: { 200: WebPushKey, ...errorResponses(401) },
      },
    },
    async () => ({ publicKey: app.services.webpush.publicKey }),
  );

  app.post(
    '/mobileuser/webpush',
    {
      preHandler: app.authenticate,
      schema: {
        ...selfNoContent,
        operationId: 'subscribeWebPush',
        tags,
        summary: "Keep this browser's push subscription for the caller",
        description:
          'The PushSubscription as the browser gives it (toJSON). The endpoint must be https, on a browser push service\'s host (WEBPUSH_ALLOWED_HOSTS) ' +
          'and never an address inside the network. Its pushes are written in the request\'s language ' +
          '(Accept-Language, Swedish by default); subscribing again changes it. 400 WEBPUSH_SUBSCRIPTION_INVALID, WEBPUSH_ENDPOINT_REFUSED.',
        body: WebPushSubscriptionBody,
        response: { 204: Type.Null(), ...errorResponses(400, 401) },
      },
    },
    async (req, reply) => {
      await subscribeWebpush(deps, req.userId, req.body, requestLanguage(req));
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/mobileuser/webpush',
    {
      preHandler: app.authenticate,
      schema: {
        ...selfNoContent,
        operationId: 'unsubscribeWebPush',
        tags,
        summary: "Forget a browser's push subscription (the caller's own)",
        description: 'Forgets the caller\'s push subscription with this `endpoint` (another user\'s is passed over). 204.',
        querystring: WebPushDeleteQuery,
        response: { 204: Type.Null(), ...errorResponses(400, 401) },
      },
    },
    async (req, reply) => {
      await unsubscribeWebpush(deps, req.userId, req.query.endpoint);
      return reply.code(204).send(null);
    },
  );
};
