import { ArgumentMetadata, BadRequestException, ValidationPipe } from '@nestjs/common';
import { ValidationError, ValidatorOptions } from 'class-validator';
import { keysLeftOut, transformSafeCopy } from '@app/action-types';
import { validatedInSlices } from './validated-in-slices';

/**
 * The pipe every body and query goes through: unknown fields are refused, values are checked and
 * turned into DTO instances. It works on `transformSafeCopy(input)`, a copy whenever the input
 * holds a key named `constructor`, `prototype` or `__proto__`: Nest's pipe deletes those in place
 * at every depth, and class-transformer crashes on some of them; a client's free-form JSON may
 * hold all but the last, and `@AsSent()` fields take their value from the untouched original.
 * Bodies reach it only after `jsonShapeProblems` found nothing, so the walk's depth is bounded.
 */
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({ whitelist: true, forbidNonWhitelisted: true, transform: true, stopAtFirstError: false });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (!metadata.metatype || !this.toValidate(metadata)) return super.transform(value, metadata);
    const instance: unknown = await super.transform(transformSafeCopy(value), metadata);
    // Whitelisting cannot refuse what never reached the instance: a field named `toString` or `constructor`.
    const leftOut = keysLeftOut(instance, value).map(({ parent, key }) => `${parent ? `${parent}.` : ''}property ${key} should not exist`);
    if (leftOut.length > 0) throw new BadRequestException(leftOut);
    return instance;
  }

  /** A batch's items are checked in slices (see `ValidatedInSlices`), anything else at once. */
  protected override async validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> {
    return (await validatedInSlices(object, async (target) => super.validate(target, options))) ?? super.validate(object, options);
  }
}
