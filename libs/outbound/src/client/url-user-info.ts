// The rule is the SDK's, where `@OutboundUrl()` applies it to action data; webhook targets follow it too.
export { userInfoProblem } from '@punctual/sdk';
