export * from './group-commit';
export * from './leader-task';
export * from './periodic-task';
