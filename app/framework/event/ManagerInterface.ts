import Joi from 'joi';
import { defineContract } from '../contract/Contract.js';

/**
 * `Framework\Event\ManagerInterface`: calls every enabled observer of an event, in module load
 * order, one after another. An observer that throws stops the dispatch and the error reaches the
 * caller (Magento's InvokerDefault does the same); inside a request that rolls the request back.
 */
export interface EventManagerInterface {
  dispatch(eventName: string, data?: Record<string, unknown>): Promise<void>;
}

export const EventManagerInterface = defineContract<EventManagerInterface>('Framework\\Event\\ManagerInterface', {
  dispatch: {
    params: [
      { name: 'eventName', schema: Joi.string().required() },
      { name: 'data', schema: Joi.object() },
    ],
  },
});
