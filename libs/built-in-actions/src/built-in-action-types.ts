import { Type } from '@nestjs/common';
import { ActionTypeDefinition } from '@punctual/sdk';
import { GrpcModule } from './grpc/grpc.module';
import { GRPC } from './grpc/grpc.type';
import { HttpRequestModule } from './http-request/http-request.module';
import { HTTP_REQUEST } from './http-request/http-request.type';
import { MessageModule } from './message/message.module';
import { MESSAGE } from './message/message.type';
import { SendNotificationModule } from './send-notification/send-notification.module';
import { SEND_NOTIFICATION } from './send-notification/send-notification.type';

/** A type every deployment knows: what the API checks its data against, and the module the worker loads to fulfill it. */
export interface BuiltInActionType {
  readonly definition: ActionTypeDefinition;
  readonly fulfillmentModule: Type;
}

/**
 * The built-in types, each one folder (`<type>/`: its data class and definition, its fulfillment
 * and module), written as a project writes its own. A new built-in type adds its entry here.
 */
export const BUILT_IN_ACTIONS: readonly BuiltInActionType[] = [
  { definition: HTTP_REQUEST, fulfillmentModule: HttpRequestModule },
  { definition: SEND_NOTIFICATION, fulfillmentModule: SendNotificationModule },
  { definition: MESSAGE, fulfillmentModule: MessageModule },
  { definition: GRPC, fulfillmentModule: GrpcModule },
];

/** The types every deployment knows. */
export const BUILT_IN_ACTION_TYPES: readonly ActionTypeDefinition[] = BUILT_IN_ACTIONS.map(({ definition }) => definition);

/** The fulfillment modules every worker loads. */
export const BUILT_IN_FULFILLMENT_MODULES: readonly Type[] = BUILT_IN_ACTIONS.map(({ fulfillmentModule }) => fulfillmentModule);
