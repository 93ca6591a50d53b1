import { ArgumentMetadata, BadRequestException, ValidationPipe } from '@nestjs/common';
import { ValidationError, ValidatorOptions } from 'class-validator';
import { ActionTypeRegistry, keysLeftOut, transformSafeCopy } from '@app/action-types';
import { fieldProblems } from '../input/field-problems';
import { actionDataProblems } from './action-data-problems';
import { validatedInSlices } from './validated-in-slices';

/**
 * The pipe every body and query goes through: unknown fields are refused, values are checked and
 * turned into DTO instances. It works on `transformSafeCopy(input)`, a copy whenever the input
 * holds a key named `constructor`, `prototype` or `__proto__`: Nest's pipe deletes those in place
 * at every depth, and class-transformer crashes on some of them; a client's free-form JSON may
 * hold all but the last, and `@AsSent()` fields take their value from the untouched original.
 * Bodies reach it only after `jsonShapeProblems` found nothing, so the walk's depth is bounded.
 *
 * A refusal lists every problem of the body at once, one per field (`fieldProblems`); given the
 * action types, those of each `data` too (`@HoldsActionData()`), so that a client fixes its body
 * in one round trip.
 */
export class ApiValidationPipe extends ValidationPipe {
  constructor(private readonly types?: ActionTypeRegistry) {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      stopAtFirstError: false,
      // The target's class tells `fieldProblems` which fields an unknown one may misspell.
      validationError: { target: true, value: true },
      exceptionFactory: (errors: ValidationError[]) => new BadRequestException(fieldProblems(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (!metadata.metatype || !this.toValidate(metadata)) return super.transform(value, metadata);
    let instance: unknown;
    try {
      instance = await super.transform(transformSafeCopy(value), metadata);
    } catch (error) {
      if (!(error instanceof BadRequestException)) throw error;
      throw await this.refusal((error.getResponse() as { message: string[] }).message, metadata.metatype, value);
    }
    // Whitelisting cannot refuse what never reached the instance: a field named `toString` or `constructor`.
    const leftOut = keysLeftOut(instance, value).map(({ parent, key }) => `${parent ? `${parent}.` : ''}property ${key} should not exist`);
    if (leftOut.length > 0) throw await this.refusal(leftOut, metadata.metatype, value);
    return instance;
  }

  /** A batch's items are checked in slices (see `ValidatedInSlices`), anything else at once. */
  protected override async validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> {
    return (await validatedInSlices(object, async (target) => super.validate(target, options))) ?? super.validate(object, options);
  }

  private async refusal(problems: string[], dto: object, value: unknown): Promise<BadRequestException> {
    const data = this.types ? await actionDataProblems(this.types, dto, value) : [];
    return new BadRequestException([...problems, ...data]);
  }
}
