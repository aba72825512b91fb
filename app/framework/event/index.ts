export { EventManagerInterface } from './ManagerInterface.js';
export { Event, Observer, DataObject, type ObserverInterface } from './Event.js';
