import { smtpSettings } from './smtp-settings';

describe('smtpSettings', () => {
  it('requires TLS before credentials go out over a plain connection', () => {
    const { options, refusal } = smtpSettings('smtp://mailer:p%40ss@mail.example.com:587');
    expect(options).toMatchObject({ host: 'mail.example.com', port: 587, secure: false, requireTLS: true, auth: { user: 'mailer', pass: 'p@ss' } });
    expect(refusal).toBeNull();
  });

  it('leaves TLS optional only when the URL says requireTLS=false in so many words', () => {
    expect(smtpSettings('smtp://mailer:pass@mail.example.com:25?requireTLS=false').options.requireTLS).toBe(false);
    expect(smtpSettings('smtp://mailer:pass@mail.example.com:25?requireTLS=0').options.requireTLS).toBe(true);
    expect(smtpSettings('smtp://mailer:pass@mail.example.com:25?requireTLS=no').options.requireTLS).toBe(true);
  });

  it.each(['ignoreTLS', 'opportunisticTLS'])('refuses every send when %s=true would let credentials go out in clear', (option) => {
    expect(smtpSettings(`smtp://mailer:pass@mail.example.com:25?${option}=true`).refusal).toBe(
      `not sent: SMTP_URL carries credentials and ${option}=true, which would send them without TLS; add requireTLS=false to allow that`,
    );
    expect(smtpSettings(`smtp://mailer:pass@mail.example.com:25?${option}=true&requireTLS=false`).refusal).toBeNull();
  });

  it('needs nothing more without credentials, or on a connection that is TLS from the start', () => {
    expect(smtpSettings('smtp://mail.example.com:25')).toEqual({ options: { secure: false, host: 'mail.example.com', port: 25 }, refusal: null });
    expect(smtpSettings('smtps://mailer:pass@mail.example.com:465').options).toMatchObject({ secure: true });
    expect(smtpSettings('smtps://mailer:pass@mail.example.com:465').options.requireTLS).toBeUndefined();
  });
});
