export { EventManagerInterface } from './ManagerInterface.js';
export { Event, Observer, DataObject, type ObserverInterface, type EventData, type ObserverOf } from './Event.js';
