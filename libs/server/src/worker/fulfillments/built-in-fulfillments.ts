import { HttpRequestModule } from './http-request/http-request.module';
import { MessageModule } from './message/message.module';
import { SendNotificationModule } from './send-notification/send-notification.module';

/** The fulfillment modules every worker loads; a new action type adds its module here. */
export const BUILT_IN_FULFILLMENT_MODULES = [HttpRequestModule, SendNotificationModule, MessageModule];
