import { defineActionType } from '@punctual/sdk';
import { GrpcData } from './grpc.data';

export const GRPC = defineActionType({ type: 'GRPC', dataClass: GrpcData });
